import { Toaster as Sonner, toast } from "sonner";

/** Section 9 of the specification; an error stays longer because it needs reading (decision 008). */
const toastConfig = {
  position: "bottom-right",
  hotkey: ["altKey", "KeyT"],
  visibleToasts: 3,
  durations: { success: 4000, error: 5000 },
} as const;

/**
 * Up to 600 px a toast spans the screen's foot, over the submit button: it takes no taps
 * (decision 124). Without `dir`, sonner restyles the whole page while hydrating (decision 132).
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

export const notify = {
  success: (message: string) => toast.success(message, { duration: toastConfig.durations.success }),
  error: (message: string) => toast.error(message, { duration: toastConfig.durations.error }),
};
