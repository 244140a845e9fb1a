import type { FieldErrors, RegistrationValues } from "./fields.ts";

/** What the register-interest action answers (server). */
export type RegistrationActionResult =
  | { status: "success" }
  | { status: "invalid"; values: RegistrationValues; fieldErrors: FieldErrors }
  | {
      status: "unavailable";
      values: RegistrationValues;
      message: string;
      retryAfterSeconds: number;
    };

/** What the page renders: the server's answer, or the browser giving up after its retries. */
export type RegistrationFormResult = RegistrationActionResult | { status: "failed" };
