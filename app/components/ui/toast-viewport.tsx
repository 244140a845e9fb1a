import { useEffect } from "react";
import { Toaster as Sonner } from "sonner";

import { toastConfig } from "../../config/ui.ts";
import { toastViewport } from "../../lib/toast-store.ts";

/** sonner's toast region: bottom-right, Alt+T, at most three visible. */
export default function ToastViewport() {
  // Effects run child-first, so sonner is subscribed to new toasts by now.
  useEffect(() => toastViewport.markMounted(), []);
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
