/**
 * Whether this page needs the toast viewport. Kept apart from notify.ts, which asks for
 * the viewport when it loads: root.tsx reads this store on every page, and importing
 * notify.ts there would ask for it on every page.
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
  /** Resolves once the viewport is mounted and listening for toasts. */
  mounted,
  markMounted: () => resolveMounted(),
};
