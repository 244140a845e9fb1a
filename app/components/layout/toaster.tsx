import { Suspense, lazy, useSyncExternalStore } from "react";

import { toastViewport } from "../../lib/toast-store.ts";

// Loaded once a page asks for it, not with the page (see app/lib/notify.ts and toast-store.ts).
const ToastViewport = lazy(() => import("./toast-viewport.tsx"));

export function Toaster() {
  const requested = useSyncExternalStore(
    toastViewport.subscribe,
    toastViewport.isRequested,
    () => false,
  );
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <ToastViewport />
    </Suspense>
  );
}
