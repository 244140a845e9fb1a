/**
 * The clinic's site configuration: launch flags and contact details.
 *
 * This is the one file staff edit to launch. Values marked `REPLACE BEFORE LAUNCH`
 * are placeholders: they are shown on the site as they are, so change them before
 * the site goes live. See README.md, "Launch switch".
 */

export type CqcStatus = "pending" | "approved";

export type SiteConfig = {
  /** Shows the fixed 'Services Available Upon CQC Approval' banner. */
  showRegulatoryNotice: boolean;
  /** 'approved' removes the banner and every "awaiting approval" notice. */
  cqcStatus: CqcStatus;
  cqcText: string;
  /** Pricing and booking stay hidden or "not yet available" until launch. */
  showPricing: boolean;
  showBooking: boolean;
  /** The company's legal name, shown in the footer. */
  companyRegistration: string;
  gmcRegistration: string;
};

const cqcStatus: CqcStatus = "pending";

export const siteFlags: SiteConfig = {
  showRegulatoryNotice: cqcStatus === "pending",
  cqcStatus,
  cqcText: "Services Available Upon CQC Approval",
  showPricing: false,
  showBooking: false,
  // REPLACE BEFORE LAUNCH: the legal name registered at Companies House.
  companyRegistration: "Meridian Men's Health Ltd",
  gmcRegistration: "GMC Registered Clinicians",
};

/** True while the clinic waits for CQC registration: drives every "awaiting approval" notice. */
export const awaitingApproval = siteFlags.cqcStatus !== "approved";

export const clinic = {
  /** The name visitors see in the header, titles and structured data. */
  name: "Meridian Men's Health",
  shortName: "Meridian",
  // REPLACE BEFORE LAUNCH: every value below is a placeholder.
  companyNumber: "00000000",
  registeredOffice: "Registered in England and Wales",
  address: {
    street: "1 Example Street",
    locality: "London",
    postcode: "EC1A 1AA",
    country: "United Kingdom",
  },
  phone: { display: "020 0000 0000", href: "tel:+442000000000" },
  email: "hello@example.co.uk",
  openingHours: [
    { days: "Monday-Friday", hours: "9:00 AM - 6:00 PM" },
    { days: "Saturday-Sunday", hours: "Closed" },
  ],
  /** Structured-data form of the opening hours (schema.org). */
  openingHoursSpec: {
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    opens: "09:00",
    closes: "18:00",
  },
  /** Rating stated in the specification. */
  rating: "4.8/5",
  /**
   * Social profiles. Leave `href` empty until a real profile exists: an empty one is
   * rendered as plain text, never as a link to a made-up address.
   */
  social: [
    { label: "Instagram", href: "" },
    { label: "LinkedIn", href: "" },
    { label: "Facebook", href: "" },
  ],
} as const;

/**
 * The public origin used for canonical URLs, Open Graph tags and the sitemap.
 * It is fixed at build time from SITE_URL, because prerendered pages carry it.
 */
export const siteUrl: string = import.meta.env.VITE_SITE_URL;
