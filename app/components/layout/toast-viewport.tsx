import { useEffect } from "react";
import { Toaster as Sonner } from "sonner";

import { toastConfig } from "../../config/ui.ts";
import { toastViewport } from "../../lib/toast-store.ts";

/**
 * How long the first toast waits after the viewport mounts. A live region that is
 * filled the moment it appears is often not announced, because screen readers pick up
 * new regions a little after they enter the page. Toasts normally come seconds after
 * the viewport was requested (docs/decisions/051); this covers the quick case.
 */
const liveRegionSettleMs = 100;

/** sonner's toast region: bottom-right, Alt+T, at most three visible. */
export default function ToastViewport() {
  // Effects run child-first, so sonner is subscribed to new toasts by now.
  useEffect(() => {
    const timer = window.setTimeout(toastViewport.markMounted, liveRegionSettleMs);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Sonner
      position={toastConfig.position}
      hotkey={[...toastConfig.hotkey]}
      visibleToasts={toastConfig.visibleToasts}
      duration={toastConfig.durations.success}
      toastOptions={{
        classNames: {
          toast: "!rounded-card !border-line !bg-surface !text-ink !shadow-card !font-sans",
          description: "!text-muted",
        },
      }}
    />
  );
}
