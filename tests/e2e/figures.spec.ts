/**
 * Every figure of spec section 9 (and the figures section 2 gives the content pages)
 * must appear on the page where it belongs. One row per figure: a missing figure fails
 * its own row, named by page and figure.
 */
import { expect, test } from "@playwright/test";

import { CONSENT_STORAGE_KEY } from "../../app/features/consent/consent-record.ts";

type Row = { path: string; figure: string };

function rows(path: string, figures: string[]): Row[] {
  return figures.map((figure) => ({ path, figure }));
}

const contentFigures: Row[] = [
  // Stated prices and figures that belong on the content pages.
  ...rows("/treatment-options", ["£15-65", "£50-75", "£90-200"]),
  ...rows("/contact", ["Monday-Friday", "9:00 AM - 6:00 PM", "Closed", "Weekends closed"]),
  ...rows("/services", [
    "6-8 weeks",
    "up to 12 months",
    "45-minute",
    "6 weeks, then 3, 6 and 12 months",
  ]),
  ...rows("/our-approach", [
    "6 weeks",
    "3 months",
    "6 months",
    "12 months",
    "below 12 nmol/L",
    "under 8 nmol/L",
    "before 10am",
    "at least four weeks apart",
  ]),
  // Clinical eligibility (section 5) and the consultation requirements (section 2).
  ...rows("/consultation", [
    "45-minute video call",
    "at least four weeks apart, both below 12 nmol/L",
    "before 10am",
    "Total testosterone, free testosterone, LH, FSH and SHBG",
    "8 nmol/L",
    "48 hours",
  ]),
  ...rows("/trt-overview", ["below 12 nmol/L", "at least four weeks apart", "18 or over"]),

  // Privacy policy.
  ...rows("/privacy-policy", [
    "January 2025",
    "1.0",
    "Personal details",
    "Medical information",
    "Digital information",
    "At least 8 years",
    "3 years",
    "12-24 months",
    "within one month",
  ]),
  // Cookie policy.
  ...rows("/cookie-policy", [
    "January 2025",
    "1.0",
    CONSENT_STORAGE_KEY,
    "1 year",
    "For the session",
    "2 years",
    "24 hours",
  ]),
  // Terms.
  ...rows("/terms-of-service", [
    "January 2025",
    "1.0",
    "Effective:",
    "apply once our services launch after regulatory approval",
    "over 18 and UK resident",
    "45-60 minutes",
    "at least 48 hours before your appointment",
    "At least two pre-treatment blood tests",
    "6-month minimum term",
    "rolling monthly",
    "30 days' cancellation notice",
    "discount",
    "refund half the annual fee",
    "before 11am",
    "no exercise for 48 hours",
    "2-4 hours after application",
    "2 hours after application",
    "two tests (x2)",
    "1 month to 6 weeks",
    "at 4 months",
    "at 7 months",
    "twice a year",
    "over one month",
    "one month's notice",
  ]),
  // Shipping policy.
  ...rows("/shipping-policy", [
    "January 2025",
    "1.0",
    "Standard",
    "Free",
    "Up to 7 working days",
    "Priority",
    "£1.99",
    "2-4 working days",
    "Tracked",
    "£5.99",
    "1-2 working days",
    "between 8am and 9pm, excluding bank holidays",
    "fit through a letterbox",
  ]),
  // Refund policy.
  ...rows("/refund-policy", [
    "January 2025",
    "1.0",
    "within 14 days of the order date",
    "full refund",
    "£6 including VAT",
    "the kit is activated",
    "the sample has been sent",
    "the 14 days have passed",
    "within 10 working days to the original payment method",
    "gift card",
    "Extra postage you chose is non-refundable once the kit has been despatched",
    "free retest",
    "venous sample",
    "after two failures",
  ]),
];

/** Figures the /pricing page shows (built in app/routes/tools/pricing.tsx). */
const pricingFigures: Row[] = rows("/pricing", [
  "£149",
  "45-minute",
  "£29",
  "£79",
  "£35",
  "£32",
  "£28",
  "£10",
  "£60",
  "£6.50",
  "£30",
  "£52",
  "£39",
  "£43",
  "£1,485",
  "£1,140",
  "6-8 weeks",
  "up to 12 months",
]);

test.describe("content page figures", () => {
  for (const { path, figure } of contentFigures) {
    test(`${path} shows "${figure}"`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("main")).toContainText(figure);
    });
  }
});

test.describe("pricing page figures", () => {
  for (const { path, figure } of pricingFigures) {
    test(`${path} shows "${figure}"`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("main")).toContainText(figure);
    });
  }
});
