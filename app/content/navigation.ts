export type NavLink = { label: string; to: string };
export type NavGroup = { label: string; id: string; links: NavLink[] };

const group = (label: string, id: string, links: NavLink[]): NavGroup => ({ label, id, links });

export const headerNav: (NavLink | NavGroup)[] = [
  { label: "Home", to: "/" },
  group("About", "about", [
    { label: "Our Approach", to: "/our-approach" },
    { label: "Meet the Team", to: "/team" },
  ]),
  group("TRT", "trt", [
    { label: "Overview", to: "/trt-overview" },
    { label: "FAQ", to: "/faq" },
  ]),
  { label: "Services", to: "/services" },
];

export const headerCta: NavLink = { label: "Register Interest", to: "/register-interest" };

/** Footer link columns. A spec item without a target is given the obvious page (see docs/decisions). */
export const footerNav: NavGroup[] = [
  group("Services", "footer-services", [
    { label: "TRT Treatment Plans", to: "/treatment-options" },
    { label: "Consultations", to: "/consultation" },
    // The spec gives 'Ongoing Monitoring' no target; /our-approach describes ongoing care.
    { label: "Ongoing Monitoring", to: "/our-approach#ongoing-care" },
    { label: "Pricing", to: "/pricing" },
    { label: "Symptom Quiz", to: "/quiz" },
  ]),
  group("About", "footer-about", [
    { label: "Our Approach", to: "/our-approach" },
    { label: "Meet the Team", to: "/team" },
    { label: "TRT Overview", to: "/trt-overview" },
    { label: "FAQ", to: "/faq" },
    { label: "Contact", to: "/contact" },
    { label: "Register Interest", to: "/register-interest" },
  ]),
  group("Legal", "footer-legal", [
    { label: "Privacy Policy", to: "/privacy-policy" },
    { label: "Terms of Service", to: "/terms-of-service" },
    { label: "Cookie Policy", to: "/cookie-policy" },
    { label: "Shipping Policy", to: "/shipping-policy" },
    { label: "Refund Policy", to: "/refund-policy" },
    { label: "Accessibility", to: "/accessibility" },
  ]),
];
