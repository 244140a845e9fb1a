import { z } from "zod/mini";

import {
  type Attribution,
  attributionFields,
  registrationPaths,
} from "../../../contract/registrations.ts";
import { registrationErrors as messages } from "../../content/registration.ts";

/*
 * The register-interest form on both sides of the wire, for the page, the island and the
 * action: field names and limits, the zod schema, idempotency keys, the action's answer,
 * and how the island sends the form and retries.
 * zod/mini (decision 128): about 5 KB gzipped in the browser against full zod's 22, and
 * its object schema never compiles a parser with `new Function`, which the CSP forbids.
 */

/** The browser gets the same numbers as `maxLength`; the server enforces them (decision 035). */
export const registrationLimits = {
  name: 100,
  /** RFC 5321 caps a forward path at 256 octets, so an address is at most 254 characters. */
  email: 254,
  /** A mail server refuses longer parts with 501 (RFC 5321 4.5.3.1), so the form does first. */
  emailParts: { local: 64, domain: 253, label: 63 },
  phone: 20,
  /** E.164 numbers have at most 15 digits; fewer than 7 is not a reachable number. */
  phoneDigits: { min: 7, max: 15 },
  message: 2000,
  /** An ISO 8601 date-time with offset is about 30 characters; more is not a timestamp. */
  clientTimestamp: 40,
  /** A campaign's tag is a word or two; longer is noise, not a source worth a row. */
  utm: 100,
  /** A DNS name is at most 253 characters (RFC 1035). */
  referrerHost: 253,
} as const;

export const fieldNames = {
  name: "name",
  email: "email",
  phone: "phone",
  message: "message",
  /** The honeypot: people never see it, so a value means a bot filled it. */
  honeypot: "website",
  idempotencyKey: "idempotencyKey",
  clientTimestamp: "clientTimestamp",
  updates: "updates",
  consentVersion: "consentVersion",
  analytics: attributionFields.allowed,
  utmSource: attributionFields.source,
  utmMedium: attributionFields.medium,
  utmCampaign: attributionFields.campaign,
  referrer: attributionFields.referrer,
} as const;

export const UPDATES_TICKED = "yes";
export const ANALYTICS_ALLOWED = "yes";

/** What a person typed: echoed back into the form when it needs correcting. */
export type RegistrationValues = Record<"name" | "email" | "phone" | "message", string>;

export type FieldErrors = Partial<Record<keyof RegistrationValues, string>>;

export type RawSubmission = Record<keyof typeof fieldNames, string>;

/** A missing or non-text field reads as "". */
export function readSubmission(form: FormData | URLSearchParams): RawSubmission {
  const entries = Object.entries(fieldNames).map(([key, name]) => {
    const value = form.get(name);
    return [key, typeof value === "string" ? value : ""];
  });
  return Object.fromEntries(entries) as RawSubmission;
}

/** Name or email blank: the case with its own toast (specification, section 5). */
export function isMissingRequired(values: Pick<RegistrationValues, "name" | "email">): boolean {
  return values.name.trim() === "" || values.email.trim() === "";
}

function isPhoneNumber(value: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  const { min, max } = registrationLimits.phoneDigits;
  return digits >= min && digits <= max;
}

function fitsSmtp(address: string): boolean {
  const at = address.lastIndexOf("@");
  const [local, domain] = [address.slice(0, at), address.slice(at + 1)];
  const max = registrationLimits.emailParts;
  return (
    local.length <= max.local &&
    domain.length <= max.domain &&
    domain.split(".").every((label) => label.length <= max.label)
  );
}

const emptyToNull = (value: string) => (value === "" ? null : value);

/**
 * Invisible characters nobody types on purpose, removed before any check (decisions 043, 077):
 * - C0 controls and DEL: NUL is cut off by SQLite readers and refused by PostgreSQL
 *   (found by tests/e2e/fuzz.spec.ts); ESC starts terminal escape sequences.
 * - C1 controls: U+009B is a one-character CSI, so `Eve\u009b2J` clears an operator's
 *   xterm; U+009D starts an OSC (window title, clipboard).
 * - Bidirectional overrides, embeddings, isolates and marks reorder what a reader sees
 *   ("Trojan Source"); right-to-left names display correctly without them.
 * - U+2028 and U+2029 break lines in some viewers but not others.
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

/** Invisible characters removed, then trimmed, then the checks. */
const cleaned = (strip: (value: string) => string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.string().check(z.overwrite(strip), z.trim(), ...checks);
/** As `cleaned`, with "" read as null: an optional field left empty. */
const orNull = (strip: (value: string) => string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.pipe(cleaned(strip, ...checks), z.transform(emptyToNull));

/** The browser runs it for fast feedback, the action for safety. */
export const registrationSchema = z.object({
  name: cleaned(
    stripControls,
    z.minLength(1, { error: messages.nameRequired, abort: true }),
    z.maxLength(registrationLimits.name, messages.nameTooLong),
  ),
  email: z.pipe(
    cleaned(
      stripControls,
      z.minLength(1, { error: messages.emailRequired, abort: true }),
      z.maxLength(registrationLimits.email, { error: messages.emailTooLong, abort: true }),
    ),
    z.email(messages.emailInvalid).check(z.refine(fitsSmtp, messages.emailPartTooLong)),
  ),
  phone: orNull(
    stripControls,
    z.maxLength(registrationLimits.phone, { error: messages.phoneTooLong, abort: true }),
    z.refine((v) => v === "" || isPhoneNumber(v), messages.phoneInvalid),
  ),
  message: orNull(
    stripControlsButLines,
    z.maxLength(registrationLimits.message, messages.messageTooLong),
  ),
});

export type RegistrationFields = z.output<typeof registrationSchema>;

/** Keeps the first message for each field. */
export function validateRegistration(values: RegistrationValues) {
  const result = registrationSchema.safeParse(values);
  if (result.success) return { success: true as const, data: result.data };
  const fieldErrors: FieldErrors = {};
  // Every issue is on one of the schema's four fields.
  for (const issue of result.error.issues)
    fieldErrors[issue.path[0] as keyof FieldErrors] ??= issue.message;
  return { success: false as const, fieldErrors };
}

const timestampSchema = z.iso.datetime({ offset: true });

const utmSchema = orNull(stripControls, z.maxLength(registrationLimits.utm));
const hostSchema = z.pipe(
  z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.maxLength(registrationLimits.referrerHost),
      z.regex(/^$|^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/),
    ),
  z.transform(emptyToNull),
);

/**
 * Where the visit came from (decision 134), from the hidden fields the page script fills,
 * or null when the visitor did not allow analytics. A value too long or not a host name is
 * dropped, never the registration over it: nobody can correct a hidden field.
 */
export function usableAttribution(submission: RawSubmission): Attribution | null {
  if (submission.analytics !== ANALYTICS_ALLOWED) return null;
  const read = (schema: typeof utmSchema | typeof hostSchema, value: string) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
  return {
    source: read(utmSchema, submission.utmSource),
    medium: read(utmSchema, submission.utmMedium),
    campaign: read(utmSchema, submission.utmCampaign),
    referrer: read(hostSchema, submission.referrer),
  };
}

/** Kept exactly as sent; null when absent or not a date-time. */
export function usableClientTimestamp(value: string): string | null {
  if (value === "" || value.length > registrationLimits.clientTimestamp) return null;
  return timestampSchema.safeParse(value).success ? value : null;
}

/** What the action answers: JSON to the island, the page's action data without JavaScript. */
export type RegistrationActionResult =
  | { status: "success" }
  | ({ values: RegistrationValues; wantsUpdates: boolean } & (
      | { status: "invalid"; fieldErrors: FieldErrors }
      | { status: "unavailable"; message: string; retryAfterSeconds: number }
    ));

/** Or the browser giving up after its retries. */
export type RegistrationFormResult = RegistrationActionResult | { status: "failed" };

/** A usable idempotency key is a UUID; anything else is ignored and the server derives one. */
export function usableIdempotencyKey(value: string): string | null {
  const trimmed = value.trim();
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(trimmed)
    ? trimmed.toLowerCase()
    : null;
}

export function formatUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * One per filled-in form. crypto.randomUUID exists only in secure contexts (https and
 * localhost), so plain-http previews build a v4 UUID from getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** Whitespace runs collapsed and the email lower-cased: what a derived key is made from. */
export function normaliseForKey(fields: RegistrationFields): string {
  const squash = (value: string | null) => (value === null ? null : value.replace(/\s+/g, " "));
  return JSON.stringify([
    squash(fields.name),
    fields.email.toLowerCase(),
    squash(fields.phone),
    squash(fields.message),
  ]);
}

/** The data-fetching defaults of section 9 (app/config/ui.ts). */
export type RetryPolicy = { retries: number; baseDelayMs: number; maxDelayMs: number };

/**
 * An answer that is not a stored registration or the fields' errors: the action's own 503
 * (storage unavailable), a guard's refusal, a proxy's error page.
 */
export class HttpFailure extends Error {
  override name = "HttpFailure";
  readonly status: number;
  readonly retryAfterMs: number | null;
  constructor(status: number, retryAfterMs: number | null) {
    super(`The server answered ${status}.`);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The wait before retry `retryIndex` (0-based), doubling up to the cap, or null to stop. A
 * longer Retry-After is honoured; one beyond the cap (a daily rate limit, say) means
 * retrying now is pointless.
 */
export function retryDelay(
  retryIndex: number,
  policy: RetryPolicy,
  retryAfterMs: number | null,
): number | null {
  if (retryIndex >= policy.retries) return null;
  if (retryAfterMs !== null && retryAfterMs > policy.maxDelayMs) return null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.max(backoff, retryAfterMs ?? 0);
}

/**
 * Network failures (fetch throws a TypeError), 5xx, 408 and 429 are transient; other 4xx
 * answers (403 foreign origin, 413 too large) would fail the same way again; an abort
 * means the visitor left the page.
 */
export function classifySubmitError(
  error: unknown,
): { retry: false } | { retry: true; retryAfterMs: number | null } {
  if (error instanceof Error && error.name === "AbortError") return { retry: false };
  if (!(error instanceof HttpFailure)) return { retry: true, retryAfterMs: null };
  const transient = error.status === 408 || error.status === 429 || error.status >= 500;
  return transient ? { retry: true, retryAfterMs: error.retryAfterMs } : { retry: false };
}

/**
 * Runs `attempt` until it succeeds, a failure is not transient, or the retries are spent,
 * then throws the last error. Every attempt carries the same idempotency key, so a retry
 * of a request that did reach the database is answered as a duplicate.
 */
export async function submitWithRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
): Promise<T> {
  for (let retryIndex = 0; ; retryIndex++) {
    try {
      return await attempt(retryIndex + 1);
    } catch (error) {
      const verdict = classifySubmitError(error);
      const delay = verdict.retry ? retryDelay(retryIndex, policy, verdict.retryAfterMs) : null;
      if (delay === null) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

const statuses: ReadonlySet<unknown> = new Set(["success", "invalid", "unavailable"]);

function isResult(answer: unknown): answer is RegistrationActionResult {
  return (
    typeof answer === "object" && answer !== null && statuses.has(Reflect.get(answer, "status"))
  );
}

/** From the header or a guard's JSON `retryAfterSeconds`. */
function retryAfterMs(response: Response, answer: unknown): number | null {
  const fromBody =
    typeof answer === "object" && answer !== null ? Reflect.get(answer, "retryAfterSeconds") : null;
  const seconds = Number(response.headers.get("Retry-After") ?? fromBody ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/**
 * One attempt: the form's fields, posted as the browser posts them, to the page's own
 * action asking for JSON. Resolves with the answer (stored, or the fields' errors); throws
 * HttpFailure for any other answer and fetch's TypeError when the network fails.
 */
export async function sendRegistration(form: FormData): Promise<RegistrationActionResult> {
  const body = new URLSearchParams();
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") body.append(name, value);
  }
  const response = await fetch(registrationPaths.form, {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!isResult(answer) || answer.status === "unavailable") {
    throw new HttpFailure(response.status, retryAfterMs(response, answer));
  }
  return answer;
}
