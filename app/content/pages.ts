import { clinic } from "./clinic.ts";

const page = (heading: string, description: string, title = heading) => ({
  title: `${title} | ${clinic.name}`,
  description,
  heading,
});
export type PageInfo = ReturnType<typeof page>;

/** Titles under about 60 characters, descriptions under 155: search results show them whole. */
export const pages = {
  "/": {
    title: `${clinic.name} | Expert TRT for the Modern Man`,
    description:
      "A UK men's health clinic for low testosterone: specialist assessment, blood testing and ongoing care. Register your interest ahead of our launch.",
    heading: "Expert TRT for the Modern Man",
  },
  "/our-approach": page(
    "Our Approach",
    "How we assess, treat and follow up low testosterone: evidence-based principles, a three-step process and regular monitoring.",
  ),
  "/team": page(
    "Meet the Team",
    `The GMC-registered clinicians behind ${clinic.name}, their qualifications and their experience in men's hormone health.`,
  ),
  "/trt-overview": page(
    "Testosterone Replacement Therapy",
    "What testosterone replacement therapy is, how it may help, who may be a candidate and what it can change in daily life.",
    "TRT Overview",
  ),
  "/faq": page(
    "Frequently Asked Questions",
    "Answers about getting started, hormones and health, support and logistics: blood tests, treatment, delivery and payments.",
  ),
  "/services": page(
    "Our Services",
    "Consultations, blood testing, personalised treatment plans and ongoing monitoring, available once we are registered with the CQC.",
  ),
  "/treatment-options": page(
    "TRT Treatment Options",
    "Injectable, topical and oral testosterone compared: how each works, dosing schedules, pros and cons, and typical monthly costs.",
  ),
  "/consultation": page(
    "TRT Consultation",
    "What you will need for a TRT consultation: two morning blood tests, a full hormone panel and your medical history.",
  ),
  "/contact": page(
    "Contact Us",
    `How to reach ${clinic.name}: address, telephone, email and opening hours, Monday to Friday 9am to 6pm.`,
  ),
  "/quiz": page(
    "ADAM Symptom Quiz",
    "Ten short questions about common symptoms of low testosterone. A private screening aid, not a diagnosis; your answers stay on your device.",
  ),
  "/pricing": page(
    "Transparent Pricing",
    "Transparent TRT costs: compare providers, estimate your monthly and yearly cost, and see the full first- and second-year breakdown.",
    "Pricing and Cost Calculator",
  ),
  "/register-interest": page(
    "Register Your Interest",
    `Join the waiting list and we will tell you when ${clinic.name} opens. No payment and no commitment.`,
  ),
  "/register-interest/thank-you": page(
    "Register Your Interest",
    "Your registration has reached us. Check your inbox to confirm your email address.",
    "Thank You for Registering",
  ),
  "/privacy-policy": page(
    "Privacy Policy",
    "What personal data we collect, why, how long we keep it and how to exercise your rights under UK GDPR.",
  ),
  "/terms-of-service": page(
    "Terms of Service",
    "The terms that will apply to consultations, memberships and treatment once our services launch after regulatory approval.",
  ),
  "/cookie-policy": page(
    "Cookie Policy",
    "Which cookies and similar storage this site uses, how long they last and how to change your choice.",
  ),
  "/shipping-policy": page(
    "Shipping Policy",
    "Delivery options, times and costs for test kits and treatment: standard, priority and tracked delivery across the UK.",
  ),
  "/refund-policy": page(
    "Refund Policy",
    "Your 14-day cancellation right, when refunds apply, how they are paid and what happens if a test sample fails.",
  ),
  "/accessibility": page(
    "Accessibility Statement",
    "How accessible this website is: the standard we meet (WCAG 2.2 AA), how we test it, its known limits and how to report a problem.",
  ),
} as const satisfies Record<string, PageInfo>;

export type PagePath = keyof typeof pages;

export const notFoundPage = page(
  "Oops! Page not found",
  "The page you were looking for does not exist.",
  "Page not found",
);
