import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False on the server and while hydrating, so a no-JavaScript fallback steps aside cleanly. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
