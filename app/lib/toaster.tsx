import { Toaster as Sonner, toast } from "sonner";

import { toastConfig } from "../config/ui.ts";

/**
 * sonner's toast region, rendered by the islands that toast, so its live region is in place
 * long before the first toast (docs/decisions/105). Up to 600 px wide a toast spans the
 * screen's foot, often over the submit button a visitor is tapping: there it takes no taps
 * (docs/decisions/124). Without `dir`, sonner reads the page's direction while hydrating and
 * restyles the whole page (docs/decisions/132).
 */
export function Toaster() {
  return (
    <Sonner
      dir="ltr"
      position={toastConfig.position}
      hotkey={[...toastConfig.hotkey]}
      visibleToasts={toastConfig.visibleToasts}
      duration={toastConfig.durations.success}
      toastOptions={{
        classNames: {
          toast:
            "!rounded-card !border-line !bg-surface !text-ink !shadow-card !font-sans [@media(max-width:600px)]:pointer-events-none",
          description: "!text-muted",
        },
      }}
    />
  );
}

/** Toasts with the durations of the specification: 4 s for confirmations, 5 s for errors. */
export const notify = {
  success: (message: string) => toast.success(message, { duration: toastConfig.durations.success }),
  error: (message: string) => toast.error(message, { duration: toastConfig.durations.error }),
};
