import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False in the server (and prerendered) HTML and during hydration, true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
