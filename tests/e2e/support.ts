import type { BrowserContext, Page } from "@playwright/test";

/** The localStorage key of the cookie choice (app/lib/consent/consent-record.ts). */
export const CONSENT_KEY = "meridian-clinic.cookie-consent";

/** Every static route of app/routes.ts, with the main heading it must show. */
export const staticRoutes: { path: string; heading: string }[] = [
  { path: "/", heading: "Expert TRT for the Modern Man" },
  { path: "/our-approach", heading: "Our Approach" },
  { path: "/team", heading: "Meet the Team" },
  { path: "/trt-overview", heading: "Testosterone Replacement Therapy" },
  { path: "/faq", heading: "Frequently Asked Questions" },
  { path: "/services", heading: "Our Services" },
  { path: "/register-interest", heading: "Register Your Interest" },
  { path: "/quiz", heading: "ADAM Symptom Quiz" },
  { path: "/pricing", heading: "Transparent Pricing" },
  { path: "/treatment-options", heading: "TRT Treatment Options" },
  { path: "/consultation", heading: "TRT Consultation" },
  { path: "/contact", heading: "Contact Us" },
  { path: "/privacy-policy", heading: "Privacy Policy" },
  { path: "/terms-of-service", heading: "Terms of Service" },
  { path: "/cookie-policy", heading: "Cookie Policy" },
  { path: "/shipping-policy", heading: "Shipping Policy" },
  { path: "/refund-policy", heading: "Refund Policy" },
];

/** Stores an 'Essential Only' choice before any page script runs, so the banner stays away. */
export async function seedConsent(context: BrowserContext) {
  await context.addInitScript((key) => {
    window.localStorage.setItem(
      key,
      JSON.stringify({
        version: 1,
        essential: true,
        analytics: false,
        functional: false,
        marketing: false,
        decidedAt: new Date().toISOString(),
      }),
    );
  }, CONSENT_KEY);
}

/** Waits until React has hydrated the page, so clicks reach React's handlers. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}
