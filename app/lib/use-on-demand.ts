import { useCallback, useState } from "react";

type Loader<T> = () => Promise<T>;

interface Entry<T> {
  promise: Promise<T>;
  value?: T;
}

/** One download per module for the whole visit, shared by every component that asks. */
const cache = new Map<Loader<unknown>, Entry<unknown>>();

function start<T>(load: Loader<T>): Entry<T> {
  const cached = cache.get(load) as Entry<T> | undefined;
  if (cached) return cached;
  const entry: Entry<T> = {
    promise: load().then(
      (value) => {
        entry.value = value;
        return value;
      },
      (error: unknown) => {
        // Offline or a new deployment: forget the failure, so the next intent tries again.
        cache.delete(load);
        throw error;
      },
    ),
  };
  cache.set(load, entry);
  return entry;
}

/**
 * Used by the desktop menu alone (desktop-nav.tsx): everything else that used to load
 * this way is native HTML now (decision 054).
 *
 * A module that loads when someone shows they are about to use it (points at it,
 * focuses it, taps it) instead of with the page. Until it arrives the caller renders a
 * stand-in with the same look, which the prerendered HTML also shows.
 *
 * Returns the module once loaded (null before) and `request`, which starts the download;
 * calling it again is free. `load` must be a module-level function, as it is the cache key.
 */
export function useOnDemand<T>(load: Loader<T>): [T | null, () => void] {
  // Hydration always starts from the stand-in, whatever is cached, so it matches the HTML.
  const [module, setModule] = useState<T | null>(null);
  const request = useCallback(() => {
    const entry = start(load);
    if (entry.value !== undefined) {
      setModule(() => entry.value as T);
      return;
    }
    entry.promise.then(
      (value) => setModule(() => value),
      (error: unknown) => console.error("Could not load part of the page:", error),
    );
  }, [load]);
  return [module, request];
}

/**
 * What a visitor did to a stand-in before the real component arrived: the item he asked
 * to open or choose, and the element (by its `data-focus-key`) that had focus.
 */
export interface Intent {
  open?: string;
  focus?: string;
  /** The item the pointer rests on (the desktop menu opens it after its usual delay). */
  hover?: string;
}

/** Focus that was on a stand-in element which has just been replaced moves to its twin. */
export function restoreFocus(root: HTMLElement | null, key: string | undefined) {
  if (!root || !key) return;
  // Only when focus fell to the page because its element went away: never steal it.
  const active = document.activeElement;
  if (active && active !== document.body) return;
  root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`)?.focus();
}
