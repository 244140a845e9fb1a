import { toast } from "sonner";

import { toastConfig } from "../config/ui.ts";

/** Toasts with the durations of the specification: 4 s for confirmations, 5 s for errors. */
export const notify = {
  success: (message: string) => toast.success(message, { duration: toastConfig.durations.success }),
  info: (message: string) => toast.info(message, { duration: toastConfig.durations.info }),
  error: (message: string) => toast.error(message, { duration: toastConfig.durations.error }),
};
