export type NavLink = { label: string; to: string };
export type NavGroup = { label: string; id: string; links: NavLink[] };
export type NavItem = NavLink | NavGroup;

export function isNavGroup(item: NavItem): item is NavGroup {
  return "links" in item;
}

export const headerNav: NavItem[] = [
  { label: "Home", to: "/" },
  {
    label: "About",
    id: "about",
    links: [
      { label: "Our Approach", to: "/our-approach" },
      { label: "Meet the Team", to: "/team" },
    ],
  },
  {
    label: "TRT",
    id: "trt",
    links: [
      { label: "Overview", to: "/trt-overview" },
      { label: "FAQ", to: "/faq" },
    ],
  },
  { label: "Services", to: "/services" },
];

export const headerCta: NavLink = { label: "Register Interest", to: "/register-interest" };

/** Footer link columns. A spec item without a target is given the obvious page (see docs/decisions). */
export const footerNav: NavGroup[] = [
  {
    label: "Services",
    id: "footer-services",
    links: [
      { label: "TRT Treatment Plans", to: "/treatment-options" },
      { label: "Consultations", to: "/consultation" },
      // The spec gives 'Ongoing Monitoring' no target; /our-approach describes ongoing care.
      { label: "Ongoing Monitoring", to: "/our-approach#ongoing-care" },
      { label: "Pricing", to: "/pricing" },
      { label: "Symptom Quiz", to: "/quiz" },
    ],
  },
  {
    label: "About",
    id: "footer-about",
    links: [
      { label: "Our Approach", to: "/our-approach" },
      { label: "Meet the Team", to: "/team" },
      { label: "TRT Overview", to: "/trt-overview" },
      { label: "FAQ", to: "/faq" },
      { label: "Contact", to: "/contact" },
      { label: "Register Interest", to: "/register-interest" },
    ],
  },
  {
    label: "Legal",
    id: "footer-legal",
    links: [
      { label: "Privacy Policy", to: "/privacy-policy" },
      { label: "Terms of Service", to: "/terms-of-service" },
      { label: "Cookie Policy", to: "/cookie-policy" },
      { label: "Shipping Policy", to: "/shipping-policy" },
      { label: "Refund Policy", to: "/refund-policy" },
      { label: "Accessibility", to: "/accessibility" },
    ],
  },
];
