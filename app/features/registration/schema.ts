import { z } from "zod/mini";

import {
  type FieldErrors,
  type RegistrationFields,
  type RegistrationValues,
  registrationLimits,
} from "./fields.ts";
import { registrationErrors as messages } from "../../content/registration.ts";

/*
 * The zod half of the register-interest form, for the server action and the form's island
 * alike (docs/decisions/128). It uses zod/mini: about 5 KB gzipped in the browser against
 * full zod's 22, and its object schema never compiles a parser with `new Function`, so
 * it needs no eval, which the Content-Security-Policy forbids (csp.spec.ts would see the
 * violation). Everything the page needs to render lives in fields.ts.
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

/** The local part, the domain and each of its labels within what SMTP allows. */
function fitsSmtp(address: string): boolean {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const { emailParts: max } = registrationLimits;
  return (
    local.length <= max.local &&
    domain.length <= max.domain &&
    domain.split(".").every((label) => label.length <= max.label)
  );
}

const emptyToNull = (value: string) => (value === "" ? null : value);

/**
 * Invisible characters nobody types on purpose, removed before any check
 * (docs/decisions/043 and 077):
 * - C0 controls and DEL: NUL is cut off by SQLite readers and refused by PostgreSQL
 *   (found by tests/e2e/fuzz.spec.ts); ESC starts terminal escape sequences.
 * - C1 controls (U+0080–U+009F): U+009B is a one-character CSI, so `Eve\u009b2J`
 *   clears an operator's xterm; U+009D starts an OSC (window title, clipboard).
 * - Bidirectional overrides, embeddings, isolates and marks (U+202A–U+202E,
 *   U+2066–U+2069, U+200E, U+200F, U+061C): they reorder what a reader sees
 *   ("Trojan Source"), and right-to-left names display correctly without them.
 * - The Unicode line and paragraph separators (U+2028, U+2029), which break lines
 *   in some viewers but not others.
 * Multi-line messages keep tab, LF and CR.
 */
const controls =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;
const controlsButLines =
  // eslint-disable-next-line no-control-regex -- as above, minus tab, LF and CR
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;
const stripControls = (value: string) => value.replace(controls, "");
const stripControlsButLines = (value: string) => value.replace(controlsButLines, "");

/** The one schema of the form: the browser runs it for fast feedback, the action for safety. */
export const registrationSchema = z.object({
  name: z
    .string()
    .check(
      z.overwrite(stripControls),
      z.trim(),
      z.minLength(1, { error: messages.nameRequired, abort: true }),
      z.maxLength(registrationLimits.name, messages.nameTooLong),
    ),
  email: z.pipe(
    z
      .string()
      .check(
        z.overwrite(stripControls),
        z.trim(),
        z.minLength(1, { error: messages.emailRequired, abort: true }),
        z.maxLength(registrationLimits.email, { error: messages.emailTooLong, abort: true }),
      ),
    z.email(messages.emailInvalid).check(z.refine(fitsSmtp, messages.emailPartTooLong)),
  ),
  phone: z.pipe(
    z.string().check(
      z.overwrite(stripControls),
      z.trim(),
      z.maxLength(registrationLimits.phone, { error: messages.phoneTooLong, abort: true }),
      z.refine((v) => v === "" || isPhoneNumber(v), messages.phoneInvalid),
    ),
    z.transform(emptyToNull),
  ),
  message: z.pipe(
    z
      .string()
      .check(
        z.overwrite(stripControlsButLines),
        z.trim(),
        z.maxLength(registrationLimits.message, messages.messageTooLong),
      ),
    z.transform(emptyToNull),
  ),
}) satisfies z.ZodMiniType<RegistrationFields, RegistrationValues>;

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
