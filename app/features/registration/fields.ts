/*
 * The parts of the register-interest form that the page needs to render and read it:
 * limits, field names, value types and reading a submission. The checks themselves are
 * the zod schema in schema.ts (docs/decisions/128).
 */

/**
 * The limits of the register-interest form (docs/decisions/035). The browser gets the
 * same numbers as `maxLength`, and the server enforces them again.
 */
export const registrationLimits = {
  name: 100,
  /** RFC 5321 caps a forward path at 256 octets, so an address is at most 254 characters. */
  email: 254,
  /**
   * What SMTP accepts of an address's parts (RFC 5321, 4.5.3.1): a mail server refuses
   * a longer local part with 501, so the form refuses it first (docs/decisions/102).
   */
  emailParts: { local: 64, domain: 253, label: 63 },
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
  /** The optional box: occasional news before launch ("yes" when ticked). */
  updates: "updates",
  /** The version of the consent wording the form showed (app/content/registration.ts). */
  consentVersion: "consentVersion",
} as const;

/** The value a ticked updates box sends. */
export const UPDATES_TICKED = "yes";

/** What a person typed, as strings: echoed back into the form when it needs correcting. */
export type RegistrationValues = Record<"name" | "email" | "phone" | "message", string>;

/** The four fields once validated: trimmed, with empty optional fields as null. */
export type RegistrationFields = {
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
};

export type FieldErrors = Partial<Record<keyof RegistrationValues, string>>;

/** Everything a submission carries, read from the posted form as plain strings. */
export type RawSubmission = RegistrationValues & {
  honeypot: string;
  idempotencyKey: string;
  clientTimestamp: string;
  updates: string;
  consentVersion: string;
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
    updates: text(fieldNames.updates),
    consentVersion: text(fieldNames.consentVersion),
  };
}

/** True when name or email is blank: the case with its own toast (specification, section 5). */
export function isMissingRequired(values: Pick<RegistrationValues, "name" | "email">): boolean {
  return values.name.trim() === "" || values.email.trim() === "";
}
