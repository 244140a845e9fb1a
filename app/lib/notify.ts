import { toastViewport } from "./toast-store.ts";
import { toastConfig } from "../config/ui.ts";

type Kind = keyof typeof toastConfig.durations;

/*
 * sonner is about 9 KB gzipped and most pages never show a toast, so it is not part of
 * every first load (docs/decisions/046). The pages whose code imports this module (the
 * registration form, the cost calculator) ask for the toast viewport as soon as they
 * load: its live region is then in place well before the first toast, so screen readers
 * announce it.
 */
if (typeof window !== "undefined") toastViewport.request();

function show(kind: Kind, message: string) {
  toastViewport.request();
  Promise.all([import("sonner"), toastViewport.mounted])
    .then(([{ toast }]) => {
      toast[kind](message, { duration: toastConfig.durations[kind] });
    })
    .catch((error: unknown) => {
      console.error("Could not show a notification:", message, error);
    });
}

/** Toasts with the durations of the specification: 4 s for confirmations, 5 s for errors. */
export const notify = {
  success: (message: string) => show("success", message),
  info: (message: string) => show("info", message),
  error: (message: string) => show("error", message),
};
