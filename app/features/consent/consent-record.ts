/** The localStorage key, prefixed with the clinic's name so it never collides. */
export const CONSENT_STORAGE_KEY = "meridian-clinic.cookie-consent";

export const consentCategories = ["essential", "analytics", "functional", "marketing"] as const;
export type Consent = Record<(typeof consentCategories)[number], boolean>;

// ISO 8601 date-time in UTC or with an offset, as Date#toISOString writes it.
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checked by hand rather than with zod: this runs on every page, and zod would add
 * about 20 KB gzipped to every first load (docs/decisions/046).
 */
function problemWith(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const record = value as Record<string, unknown>;
  if (record["version"] !== 1) return "version must be 1";
  if (record["essential"] !== true) return "essential must be true";
  for (const key of ["analytics", "functional", "marketing"]) {
    if (typeof record[key] !== "boolean") return `${key} must be a boolean`;
  }
  const decidedAt = record["decidedAt"];
  if (
    typeof decidedAt !== "string" ||
    !ISO_DATE_TIME.test(decidedAt) ||
    Number.isNaN(Date.parse(decidedAt))
  ) {
    return "decidedAt must be an ISO date-time";
  }
  return null;
}

const optional = (allowed: boolean): Consent => ({
  essential: true,
  analytics: allowed,
  functional: allowed,
  marketing: allowed,
});
export const acceptAll = optional(true);
export const essentialOnly = optional(false);

/** The cookie policy keeps a choice for one year; after that the banner asks again. */
export const CONSENT_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export type ParsedConsent =
  | { kind: "none" }
  | { kind: "expired" }
  | { kind: "stored"; consent: Consent }
  | { kind: "invalid"; error: Error };

/**
 * Reads what localStorage held: the choice, a format version and when it was made. Anything
 * unreadable is `invalid`, so the banner shows again.
 */
export function parseStoredConsent(raw: string | null, now: Date = new Date()): ParsedConsent {
  if (raw === null) return { kind: "none" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { kind: "invalid", error: error instanceof Error ? error : new Error(String(error)) };
  }
  const problem = problemWith(json);
  if (problem !== null) {
    return { kind: "invalid", error: new Error(`Stored consent has the wrong shape: ${problem}`) };
  }
  const { essential, analytics, functional, marketing, decidedAt } = json as Consent & {
    decidedAt: string;
  };
  if (now.getTime() - Date.parse(decidedAt) > CONSENT_LIFETIME_MS) return { kind: "expired" };
  return { kind: "stored", consent: { essential, analytics, functional, marketing } };
}

/** Essential storage cannot be refused: it only remembers this choice. */
export function serializeConsent(consent: Consent, now: Date = new Date()): string {
  const { analytics, functional, marketing } = consent;
  const decidedAt = now.toISOString();
  return JSON.stringify({
    version: 1,
    essential: true,
    analytics,
    functional,
    marketing,
    decidedAt,
  });
}
