// The one place the clinic's name and details are written (decision 111). REPLACE BEFORE
// LAUNCH: every detail is a placeholder, shown as it is. The launch flags: app/config/site.ts.
export const clinic = {
  name: "Meridian Men's Health",
  /** The brand mark's word, and the calculator's label for our own costs. */
  shortName: "Meridian",
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
  openingHoursSpec: {
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    opens: "09:00",
    closes: "18:00",
  },
  rating: "4.8/5",
  /** An empty `href` is shown as plain text: never a link to a made-up address. */
  social: [
    { label: "Instagram", href: "" },
    { label: "LinkedIn", href: "" },
    { label: "Facebook", href: "" },
  ],
} as const;

export const postalAddress = `${clinic.address.street}, ${clinic.address.locality} ${clinic.address.postcode}`;
