import { toast } from "sonner";

import { toastConfig } from "../config/ui.ts";

type Kind = keyof typeof toastConfig.durations;

function show(kind: Kind, message: string) {
  toast[kind](message, { duration: toastConfig.durations[kind] });
}

/** Toasts with the durations of the specification: 4 s for confirmations, 5 s for errors. */
export const notify = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
};
