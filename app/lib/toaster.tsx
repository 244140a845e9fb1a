import { Toaster as Sonner } from "sonner";

import { toastConfig } from "../config/ui.ts";

/**
 * sonner's toast region: bottom-right, Alt+T, at most three visible. Root renders it only on
 * the pages that hydrate (the forms and tools that toast), so it is part of their first load
 * and its live region is in place long before the first toast (docs/decisions/105).
 *
 * Up to 600 px wide sonner stretches each toast across the bottom of the screen, over
 * whatever is there: often the form's own submit button, still under the "Please fill in
 * all required fields" toast when a visitor has filled the fields and taps it. There a toast
 * takes no taps, so the tap reaches the button (docs/decisions/124).
 *
 * `dir` is given because without it sonner reads the page's direction with getComputedStyle
 * while hydrating, forcing a style recalculation of the whole page (docs/decisions/132).
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
