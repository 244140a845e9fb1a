import { clinic } from "./clinic.ts";

export type PageInfo = {
  title: string;
  description: string;
  heading: string;
};

const titled = (page: string) => `${page} | ${clinic.name}`;

/** Titles under about 60 characters, descriptions under 155: search results show them whole. */
export const pages = {
  "/": {
    title: `${clinic.name} | Expert TRT for the Modern Man`,
    description:
      "A UK men's health clinic for low testosterone: specialist assessment, blood testing and ongoing care. Register your interest ahead of our launch.",
    heading: "Expert TRT for the Modern Man",
  },
  "/our-approach": {
    title: titled("Our Approach"),
    description:
      "How we assess, treat and follow up low testosterone: evidence-based principles, a three-step process and regular monitoring.",
    heading: "Our Approach",
  },
  "/team": {
    title: titled("Meet the Team"),
    description: `The GMC-registered clinicians behind ${clinic.name}, their qualifications and their experience in men's hormone health.`,
    heading: "Meet the Team",
  },
  "/trt-overview": {
    title: titled("TRT Overview"),
    description:
      "What testosterone replacement therapy is, how it may help, who may be a candidate and what it can change in daily life.",
    heading: "Testosterone Replacement Therapy",
  },
  "/faq": {
    title: titled("Frequently Asked Questions"),
    description:
      "Answers about getting started, hormones and health, support and logistics: blood tests, treatment, delivery and payments.",
    heading: "Frequently Asked Questions",
  },
  "/services": {
    title: titled("Our Services"),
    description:
      "Consultations, blood testing, personalised treatment plans and ongoing monitoring, available once we are registered with the CQC.",
    heading: "Our Services",
  },
  "/treatment-options": {
    title: titled("TRT Treatment Options"),
    description:
      "Injectable, topical and oral testosterone compared: how each works, dosing schedules, pros and cons, and typical monthly costs.",
    heading: "TRT Treatment Options",
  },
  "/consultation": {
    title: titled("TRT Consultation"),
    description:
      "What you will need for a TRT consultation: two morning blood tests, a full hormone panel and your medical history.",
    heading: "TRT Consultation",
  },
  "/contact": {
    title: titled("Contact Us"),
    description: `How to reach ${clinic.name}: address, telephone, email and opening hours, Monday to Friday 9am to 6pm.`,
    heading: "Contact Us",
  },
  "/quiz": {
    title: titled("ADAM Symptom Quiz"),
    description:
      "Ten short questions about common symptoms of low testosterone. A private screening aid, not a diagnosis; your answers stay on your device.",
    heading: "ADAM Symptom Quiz",
  },
  "/pricing": {
    title: titled("Pricing and Cost Calculator"),
    description:
      "Transparent TRT costs: compare providers, estimate your monthly and yearly cost, and see the full first- and second-year breakdown.",
    heading: "Transparent Pricing",
  },
  "/register-interest": {
    title: titled("Register Your Interest"),
    description: `Join the waiting list and we will tell you when ${clinic.name} opens. No payment and no commitment.`,
    heading: "Register Your Interest",
  },
  "/register-interest/thank-you": {
    title: titled("Thank You for Registering"),
    description:
      "Your registration has reached us. Check your inbox to confirm your email address.",
    heading: "Register Your Interest",
  },
  "/privacy-policy": {
    title: titled("Privacy Policy"),
    description:
      "What personal data we collect, why, how long we keep it and how to exercise your rights under UK GDPR.",
    heading: "Privacy Policy",
  },
  "/terms-of-service": {
    title: titled("Terms of Service"),
    description:
      "The terms that will apply to consultations, memberships and treatment once our services launch after regulatory approval.",
    heading: "Terms of Service",
  },
  "/cookie-policy": {
    title: titled("Cookie Policy"),
    description:
      "Which cookies and similar storage this site uses, how long they last and how to change your choice.",
    heading: "Cookie Policy",
  },
  "/shipping-policy": {
    title: titled("Shipping Policy"),
    description:
      "Delivery options, times and costs for test kits and treatment: standard, priority and tracked delivery across the UK.",
    heading: "Shipping Policy",
  },
  "/refund-policy": {
    title: titled("Refund Policy"),
    description:
      "Your 14-day cancellation right, when refunds apply, how they are paid and what happens if a test sample fails.",
    heading: "Refund Policy",
  },
  "/accessibility": {
    title: titled("Accessibility Statement"),
    description:
      "How accessible this website is: the standard we meet (WCAG 2.2 AA), how we test it, its known limits and how to report a problem.",
    heading: "Accessibility Statement",
  },
} as const satisfies Record<string, PageInfo>;

export type PagePath = keyof typeof pages;

export const notFoundPage: PageInfo = {
  title: titled("Page not found"),
  description: "The page you were looking for does not exist.",
  heading: "Oops! Page not found",
};
