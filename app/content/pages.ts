/**
 * Each page's title, meta description and main heading, keyed by path.
 * Titles are kept under about 60 characters and descriptions under about 155,
 * so search results show them whole.
 */
export type PageInfo = {
  title: string;
  description: string;
  heading: string;
};

export const pages = {
  "/": {
    title: "Meridian Men's Health | Expert TRT for the Modern Man",
    description:
      "A UK men's health clinic for low testosterone: specialist assessment, blood testing and ongoing care. Register your interest ahead of our launch.",
    heading: "Expert TRT for the Modern Man",
  },
  "/our-approach": {
    title: "Our Approach | Meridian Men's Health",
    description:
      "How we assess, treat and follow up low testosterone: evidence-based principles, a three-step process and regular monitoring.",
    heading: "Our Approach",
  },
  "/team": {
    title: "Meet the Team | Meridian Men's Health",
    description:
      "The GMC-registered clinicians behind Meridian Men's Health, their qualifications and their experience in men's hormone health.",
    heading: "Meet the Team",
  },
  "/trt-overview": {
    title: "TRT Overview | Meridian Men's Health",
    description:
      "What testosterone replacement therapy is, how it may help, who may be a candidate and what it can change in daily life.",
    heading: "Testosterone Replacement Therapy",
  },
  "/faq": {
    title: "Frequently Asked Questions | Meridian Men's Health",
    description:
      "Answers about getting started, hormones and health, support and logistics: blood tests, treatment, delivery and payments.",
    heading: "Frequently Asked Questions",
  },
  "/services": {
    title: "Our Services | Meridian Men's Health",
    description:
      "Consultations, blood testing, personalised treatment plans and ongoing monitoring, available once we are registered with the CQC.",
    heading: "Our Services",
  },
  "/treatment-options": {
    title: "TRT Treatment Options | Meridian Men's Health",
    description:
      "Injectable, topical and oral testosterone compared: how each works, dosing schedules, pros and cons, and typical monthly costs.",
    heading: "TRT Treatment Options",
  },
  "/consultation": {
    title: "TRT Consultation | Meridian Men's Health",
    description:
      "What you will need for a TRT consultation: two morning blood tests, a full hormone panel and your medical history.",
    heading: "TRT Consultation",
  },
  "/contact": {
    title: "Contact Us | Meridian Men's Health",
    description:
      "How to reach Meridian Men's Health: address, telephone, email and opening hours, Monday to Friday 9am to 6pm.",
    heading: "Contact Us",
  },
  "/quiz": {
    title: "ADAM Symptom Quiz | Meridian Men's Health",
    description:
      "Ten short questions about common symptoms of low testosterone. A private screening aid, not a diagnosis; your answers stay on your device.",
    heading: "ADAM Symptom Quiz",
  },
  "/pricing": {
    title: "Pricing and Cost Calculator | Meridian Men's Health",
    description:
      "Transparent TRT costs: compare providers, estimate your monthly and yearly cost, and see the full first- and second-year breakdown.",
    heading: "Transparent Pricing",
  },
  "/register-interest": {
    title: "Register Your Interest | Meridian Men's Health",
    description:
      "Join the waiting list and we will tell you when Meridian Men's Health opens. No payment and no commitment.",
    heading: "Register Your Interest",
  },
  "/register-interest/thank-you": {
    title: "Thank You for Registering | Meridian Men's Health",
    description:
      "Your registration has reached us. Check your inbox to confirm your email address.",
    heading: "Register Your Interest",
  },
  "/privacy-policy": {
    title: "Privacy Policy | Meridian Men's Health",
    description:
      "What personal data we collect, why, how long we keep it and how to exercise your rights under UK GDPR.",
    heading: "Privacy Policy",
  },
  "/terms-of-service": {
    title: "Terms of Service | Meridian Men's Health",
    description:
      "The terms that will apply to consultations, memberships and treatment once our services launch after regulatory approval.",
    heading: "Terms of Service",
  },
  "/cookie-policy": {
    title: "Cookie Policy | Meridian Men's Health",
    description:
      "Which cookies and similar storage this site uses, how long they last and how to change your choice.",
    heading: "Cookie Policy",
  },
  "/shipping-policy": {
    title: "Shipping Policy | Meridian Men's Health",
    description:
      "Delivery options, times and costs for test kits and treatment: standard, priority and tracked delivery across the UK.",
    heading: "Shipping Policy",
  },
  "/refund-policy": {
    title: "Refund Policy | Meridian Men's Health",
    description:
      "Your 14-day cancellation right, when refunds apply, how they are paid and what happens if a test sample fails.",
    heading: "Refund Policy",
  },
  "/accessibility": {
    title: "Accessibility Statement | Meridian Men's Health",
    description:
      "How accessible this website is: the standard we meet (WCAG 2.2 AA), how we test it, its known limits and how to report a problem.",
    heading: "Accessibility Statement",
  },
} as const satisfies Record<string, PageInfo>;

export type PagePath = keyof typeof pages;

export const notFoundPage: PageInfo = {
  title: "Page not found | Meridian Men's Health",
  description: "The page you were looking for does not exist.",
  heading: "Oops! Page not found",
};
