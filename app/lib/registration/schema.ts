import { z } from "zod";

import { registrationErrors as messages } from "../../content/registration.ts";

/**
 * The limits of the register-interest form (docs/decisions/035). The browser gets the
 * same numbers as `maxLength`, and the server enforces them again.
 */
export const registrationLimits = {
  name: 100,
  /** RFC 5321 caps a forward path at 256 octets, so an address is at most 254 characters. */
  email: 254,
  phone: 20,
  /** E.164 numbers have at most 15 digits; fewer than 7 is not a reachable number. */
  phoneDigits: { min: 7, max: 15 },
  message: 2000,
  /** An ISO 8601 date-time with offset is about 30 characters; more is not a timestamp. */
  clientTimestamp: 40,
} as const;

/** The form's field names, shared by the page, the action and the tests. */
export const fieldNames = {
  name: "name",
  email: "email",
  phone: "phone",
  message: "message",
  /** The honeypot: people never see it, so a value means a bot filled it. */
  honeypot: "website",
  idempotencyKey: "idempotencyKey",
  clientTimestamp: "clientTimestamp",
} as const;

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
});

export type RegistrationFields = z.output<typeof registrationSchema>;

/** What a person typed, as strings: echoed back into the form when it needs correcting. */
export type RegistrationValues = Record<"name" | "email" | "phone" | "message", string>;

export type FieldErrors = Partial<Record<keyof RegistrationValues, string>>;

/** Everything a submission carries, read from the posted form as plain strings. */
export type RawSubmission = RegistrationValues & {
  honeypot: string;
  idempotencyKey: string;
  clientTimestamp: string;
};

/** Reads the posted fields; a missing or non-text field reads as "". */
export function readSubmission(form: FormData | URLSearchParams): RawSubmission {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    name: text(fieldNames.name),
    email: text(fieldNames.email),
    phone: text(fieldNames.phone),
    message: text(fieldNames.message),
    honeypot: text(fieldNames.honeypot),
    idempotencyKey: text(fieldNames.idempotencyKey),
    clientTimestamp: text(fieldNames.clientTimestamp),
  };
}

/** True when name or email is blank: the case with its own toast (specification, section 5). */
export function isMissingRequired(values: Pick<RegistrationValues, "name" | "email">): boolean {
  return values.name.trim() === "" || values.email.trim() === "";
}

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
