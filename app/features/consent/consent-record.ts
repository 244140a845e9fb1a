/** Prefixed with the clinic's name so it never collides. */
export const CONSENT_STORAGE_KEY = "meridian-clinic.cookie-consent";

export const consentCategories = ["essential", "analytics", "functional", "marketing"] as const;
export type Consent = Record<(typeof consentCategories)[number], boolean>;

// As Date#toISOString writes it, or with an offset.
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The cookie policy keeps a choice for one year; after that the banner asks again. */
export const CONSENT_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export const essentialOnly: Consent = {
  essential: true,
  analytics: false,
  functional: false,
  marketing: false,
};

/** The record the page script reads (consent-script.ts); essential storage cannot be refused. */
export function serializeConsent({ analytics, functional, marketing }: Consent, now = new Date()) {
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
