import { z } from "zod";

import {
  type FieldErrors,
  type RegistrationFields,
  type RegistrationValues,
  registrationLimits,
} from "./fields.ts";
import { registrationErrors as messages } from "../../content/registration.ts";

/*
 * The zod half of the register-interest form. The server action imports it statically;
 * the browser loads it with import() on the first interaction with the form
 * (load-schema.ts), so zod is not part of the page's first load (docs/decisions/051).
 * Everything the page needs to render lives in fields.ts.
 */

/** Digits, spaces and + ( ) - . only, with an optional leading +. */
const phonePattern = /^\+?[\d\s().-]+$/;

function isPhoneNumber(value: string): boolean {
  if (!phonePattern.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return (
    digits >= registrationLimits.phoneDigits.min && digits <= registrationLimits.phoneDigits.max
  );
}

const emptyToNull = (value: string) => (value === "" ? null : value);

/**
 * Invisible control characters nobody types on purpose. NUL in particular is cut
 * off by SQLite readers and refused by PostgreSQL, so none may reach storage
 * (found by tests/e2e/fuzz.spec.ts). Multi-line messages keep tab, LF and CR.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controls = /[\u0000-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex -- as above, minus tab, LF and CR
const controlsButLines = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const stripControls = (value: string) => value.replace(controls, "");
const stripControlsButLines = (value: string) => value.replace(controlsButLines, "");

/** The one schema of the form: the browser runs it for fast feedback, the action for safety. */
export const registrationSchema = z.object({
  name: z
    .string()
    .overwrite(stripControls)
    .trim()
    .min(1, { error: messages.nameRequired, abort: true })
    .max(registrationLimits.name, messages.nameTooLong),
  email: z
    .string()
    .overwrite(stripControls)
    .trim()
    .min(1, { error: messages.emailRequired, abort: true })
    .max(registrationLimits.email, { error: messages.emailTooLong, abort: true })
    .pipe(z.email(messages.emailInvalid)),
  phone: z
    .string()
    .overwrite(stripControls)
    .trim()
    .max(registrationLimits.phone, { error: messages.phoneTooLong, abort: true })
    .refine((v) => v === "" || isPhoneNumber(v), messages.phoneInvalid)
    .transform(emptyToNull),
  message: z
    .string()
    .overwrite(stripControlsButLines)
    .trim()
    .max(registrationLimits.message, messages.messageTooLong)
    .transform(emptyToNull),
}) satisfies z.ZodType<RegistrationFields, RegistrationValues>;

export type ValidationResult =
  { success: true; data: RegistrationFields } | { success: false; fieldErrors: FieldErrors };

/** Validates the four visible fields and keeps the first message for each field. */
export function validateRegistration(values: RegistrationValues): ValidationResult {
  const result = registrationSchema.safeParse(values);
  if (result.success) return { success: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (
      (field === "name" || field === "email" || field === "phone" || field === "message") &&
      fieldErrors[field] === undefined
    ) {
      fieldErrors[field] = issue.message;
    }
  }
  return { success: false, fieldErrors };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A usable idempotency key is a UUID; anything else is ignored and the server derives one. */
export function usableIdempotencyKey(value: string): string | null {
  const trimmed = value.trim();
  return uuidPattern.test(trimmed) ? trimmed.toLowerCase() : null;
}

const timestampSchema = z.iso.datetime({ offset: true });

/** The client's ISO timestamp, kept exactly as sent; null when absent or not a date-time. */
export function usableClientTimestamp(value: string): string | null {
  if (value === "" || value.length > registrationLimits.clientTimestamp) return null;
  return timestampSchema.safeParse(value).success ? value : null;
}
