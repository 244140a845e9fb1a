import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server (and prerendered) HTML and during hydration, true afterwards.
 * Lets a no-JavaScript fallback step aside without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
