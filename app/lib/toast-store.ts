/**
 * Whether this page needs the toast viewport yet. Root's <Toaster> reads it on every
 * page and mounts the viewport (and so loads sonner) only once something asks: the
 * first interaction with a form that can toast, or the first toast (app/lib/notify.ts).
 */
let requested = false;
const listeners = new Set<() => void>();
let resolveMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  resolveMounted = resolve;
});

export const toastViewport = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  isRequested: () => requested,
  request() {
    if (requested) return;
    requested = true;
    for (const listener of listeners) listener();
  },
  /** Resolves once the viewport is mounted, listening, and its live region has settled. */
  mounted,
  markMounted: () => resolveMounted(),
};
