import type { FieldErrors, RegistrationValues } from "./fields.ts";

/** What the register-interest action answers (server). */
export type RegistrationActionResult =
  | { status: "success" }
  | {
      status: "invalid";
      values: RegistrationValues;
      wantsUpdates: boolean;
      fieldErrors: FieldErrors;
    }
  | {
      status: "unavailable";
      values: RegistrationValues;
      wantsUpdates: boolean;
      message: string;
      retryAfterSeconds: number;
    };

/** What the page renders: the server's answer, or the browser giving up after its retries. */
export type RegistrationFormResult = RegistrationActionResult | { status: "failed" };
