import { Toaster as Sonner } from "sonner";

import { toastConfig } from "../../config/ui.ts";

/**
 * sonner's toast region: bottom-right, Alt+T, at most three visible. Root renders it only on
 * the pages that hydrate (the forms and tools that toast), so it is part of their first load
 * and its live region is in place long before the first toast (docs/decisions/105).
 */
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
