import { z } from "zod/mini";

import {
  type Attribution,
  attributionFields,
  registrationPaths,
} from "../../../contract/registrations.ts";
import { registrationErrors as messages } from "../../content/registration.ts";

// zod/mini (decision 128): 5 KB gzipped, not zod's 22, and no `new Function` (the CSP forbids it).

/** The browser gets the same numbers as `maxLength`; the server enforces them (decision 035). */
export const registrationLimits = {
  name: 100,
  email: 254, // RFC 5321's 256-octet forward path
  emailParts: { local: 64, domain: 253, label: 63 }, // longer parts get a 501 (RFC 5321 4.5.3.1)
  phone: 20,
  phoneDigits: { min: 7, max: 15 }, // E.164
  message: 2000,
  clientTimestamp: 40,
  utm: 100,
  referrerHost: 253, // RFC 1035
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

/** Echoed back into the form when it needs correcting. */
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

// Decisions 043, 077: C0 and C1 controls (NUL, the one-character CSI), bidi controls, U+2028-9.
const controls =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;
const stripControls = (value: string) => value.replace(controls, "");
const stripControlsButLines = (value: string) =>
  value.replace(controls, (c) => ("\t\n\r".includes(c) ? c : ""));

const cleaned = (strip: (value: string) => string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.string().check(z.overwrite(strip), z.trim(), ...checks);
const orNull = (strip: (value: string) => string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.pipe(cleaned(strip, ...checks), z.transform(emptyToNull));

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

/** Decision 134. A bad value is dropped, not the registration: nobody can fix a hidden field. */
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

export function usableClientTimestamp(value: string): string | null {
  if (value === "" || value.length > registrationLimits.clientTimestamp) return null;
  return timestampSchema.safeParse(value).success ? value : null;
}

export type RegistrationActionResult =
  | { status: "success" }
  | ({ values: RegistrationValues; wantsUpdates: boolean } & (
      | { status: "invalid"; fieldErrors: FieldErrors }
      | { status: "unavailable"; message: string; retryAfterSeconds: number }
    ));

/** Or the browser giving up after its retries. */
export type RegistrationFormResult = RegistrationActionResult | { status: "failed" };

/** Anything but a UUID is ignored, and the server derives a key. */
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

/** crypto.randomUUID exists only in secure contexts, so plain-http previews build a v4 by hand. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}

export function normaliseForKey(fields: RegistrationFields): string {
  const squash = (value: string | null) => (value === null ? null : value.replace(/\s+/g, " "));
  return JSON.stringify([
    squash(fields.name),
    fields.email.toLowerCase(),
    squash(fields.phone),
    squash(fields.message),
  ]);
}

export type RetryPolicy = { retries: number; baseDelayMs: number; maxDelayMs: number };

/** Section 9 of the specification. */
export const retryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Any answer but stored or the fields' errors: a 503, a guard's refusal, a proxy's page. */
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

/** Null to stop: a Retry-After beyond the cap (a daily rate limit, say) makes retries pointless. */
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

/** Network failures, 5xx, 408 and 429 are transient; an abort means the visitor left. */
export function classifySubmitError(
  error: unknown,
): { retry: false } | { retry: true; retryAfterMs: number | null } {
  if (error instanceof Error && error.name === "AbortError") return { retry: false };
  if (!(error instanceof HttpFailure)) return { retry: true, retryAfterMs: null };
  const transient = error.status === 408 || error.status === 429 || error.status >= 500;
  return transient ? { retry: true, retryAfterMs: error.retryAfterMs } : { retry: false };
}

/** Every attempt carries the same key, so a retry that reached the database is a duplicate. */
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

function retryAfterMs(response: Response, answer: unknown): number | null {
  const fromBody =
    typeof answer === "object" && answer !== null ? Reflect.get(answer, "retryAfterSeconds") : null;
  const seconds = Number(response.headers.get("Retry-After") ?? fromBody ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** One attempt, posted as the browser posts the form, asking the action for JSON (decision 149). */
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
