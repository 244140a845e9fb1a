import { z } from "zod";

/** The localStorage key, prefixed with the clinic's name so it never collides. */
export const CONSENT_STORAGE_KEY = "meridian-clinic.cookie-consent";

export const consentCategories = ["essential", "analytics", "functional", "marketing"] as const;
export type ConsentCategory = (typeof consentCategories)[number];

export type Consent = Record<ConsentCategory, boolean>;

const storedConsentSchema = z.object({
  version: z.literal(1),
  essential: z.literal(true),
  analytics: z.boolean(),
  functional: z.boolean(),
  marketing: z.boolean(),
  decidedAt: z.iso.datetime(),
});

export type StoredConsent = z.infer<typeof storedConsentSchema>;

export const acceptAll: Consent = {
  essential: true,
  analytics: true,
  functional: true,
  marketing: true,
};

export const essentialOnly: Consent = {
  essential: true,
  analytics: false,
  functional: false,
  marketing: false,
};

export type ParsedConsent =
  { kind: "none" } | { kind: "stored"; consent: Consent } | { kind: "invalid"; error: Error };

/** Reads what localStorage held. Anything unreadable is `invalid`, so the banner shows again. */
export function parseStoredConsent(raw: string | null): ParsedConsent {
  if (raw === null) return { kind: "none" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { kind: "invalid", error: error instanceof Error ? error : new Error(String(error)) };
  }
  const result = storedConsentSchema.safeParse(json);
  if (!result.success) {
    return {
      kind: "invalid",
      error: new Error(`Stored consent has the wrong shape: ${result.error.message}`),
    };
  }
  const { essential, analytics, functional, marketing } = result.data;
  return { kind: "stored", consent: { essential, analytics, functional, marketing } };
}

/** Essential storage cannot be refused: it only remembers this choice. */
export function serializeConsent(consent: Consent, now: Date = new Date()): string {
  const record: StoredConsent = {
    version: 1,
    essential: true,
    analytics: consent.analytics,
    functional: consent.functional,
    marketing: consent.marketing,
    decidedAt: now.toISOString(),
  };
  return JSON.stringify(record);
}
