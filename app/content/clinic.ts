/**
 * The clinic's name and details: the one place they are written (decision 111).
 *
 * Page titles and copy, the policies, the page shell, the structured data, the emails and
 * the server's mail all read them from here. Content may import content, and the server
 * may import app/content/ (the words of emails), so every layer that needs the name can
 * reach this file. `tests/lint/clinic-name.test.ts` fails if the name is written out
 * anywhere else in app/.
 *
 * REPLACE BEFORE LAUNCH: the name and every detail below are placeholders. They are shown
 * on the site as they are. The launch flags are in app/config/site.ts.
 */
export const clinic = {
  /** The name visitors see in the header, titles, emails and structured data. */
  name: "Meridian Men's Health",
  /** The brand mark's word, and the calculator's label for our own costs. */
  shortName: "Meridian",
  /** The legal name registered at Companies House, shown in the footer and the policies. */
  legalName: "Meridian Men's Health Ltd",
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
