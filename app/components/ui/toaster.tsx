import { Toaster as Sonner } from "sonner";

import { toastConfig } from "../../config/ui.ts";

export function Toaster() {
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
