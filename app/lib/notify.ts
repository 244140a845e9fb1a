import { toastViewport } from "./toast-store.ts";
import { toastConfig } from "../config/ui.ts";

type Kind = keyof typeof toastConfig.durations;

/*
 * sonner is about 9 KB gzipped and most visits never see a toast, so it is in no first
 * load (docs/decisions/046, 051). Every toast on this site follows something the
 * visitor did in a form, so the form asks for the toast viewport on the first focus or
 * press inside it (prepareNotifications): its live region is then in place before the
 * first toast, and screen readers announce it. show() asks too, and waits for the
 * viewport to be mounted, for a toast that comes without that warning.
 */

/** Mounts the toast viewport ahead of the first toast; call it on the first interaction. */
export function prepareNotifications() {
  toastViewport.request();
}

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
