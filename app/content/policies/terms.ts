import { type PolicyDocument, list, section } from "./policy-types.ts";
import { clinic } from "../clinic.ts";

export const termsOfService: PolicyDocument = {
  lastUpdated: "January 2025",
  version: "1.0",
  effective: "January 2025",
  notice:
    "These terms apply once our services launch after regulatory approval by the Care Quality Commission (CQC). Until then we do not provide consultations, tests or treatment, and registering your interest does not create a contract.",
  intro: [
    `These terms govern the services of ${clinic.legalName} ("${clinic.name}", "we", "us"). Please read them carefully. By booking a consultation or taking out a membership you agree to them.`,
  ],
  sections: [
    section("eligibility", "1. Who can use our services", [
      "To use our services you must be over 18 and UK resident.",
      "You must give us complete and accurate information about your health. Treatment decisions rely on it, and withholding information can put your safety at risk.",
    ]),
    section("consultations", "2. Consultations", [
      "Consultations take place by secure video call and usually last about 45-60 minutes. Your doctor decides whether treatment is clinically appropriate; a consultation does not guarantee a prescription.",
      "Please send the information we ask for, including your blood results and medical history, at least 48 hours before your appointment. If it arrives later, we may need to move your appointment.",
      "At least two pre-treatment blood tests are needed before any treatment can start.",
    ]),
    section("membership", "3. Membership", [
      list(
        "Membership has a 6-month minimum term. After that it continues on a rolling monthly basis.",
        "After the minimum term, you can cancel with 30 days' cancellation notice by email.",
        "If you pay annually, you receive a discount on the monthly price.",
        "If you cancel an annual membership early, we refund half the annual fee.",
      ),
      "Membership fees cover the services described at the time you join. We will tell you in advance about any change to fees.",
    ]),
    section("blood-tests", "4. Blood tests", [
      "For accurate results, please follow these instructions:",
      list(
        "Take blood tests before 11am, when testosterone levels are highest.",
        "Do no exercise for 48 hours before a test.",
        "If you use a gel, take the sample 2-4 hours after application.",
        "If you use a cream, take the sample 2 hours after application.",
      ),
      "A typical testing schedule is:",
      list(
        "pre-treatment: two tests (x2), to confirm the diagnosis;",
        "1 month to 6 weeks after starting treatment;",
        "at 4 months;",
        "at 7 months;",
        "then twice a year.",
      ),
      "The two pre-treatment tests that confirm the diagnosis are taken before 10am; the 11am limit above applies to monitoring tests. Our website's monitoring plan (6 weeks, then 3, 6 and 12 months) and this timetable both start with a check about six weeks in and end in tests twice a year; your clinician sets your own dates.",
    ]),
    section("treatment", "5. Treatment and prescriptions", [
      "Prescriptions are issued by GMC-registered doctors and dispensed by a UK-registered pharmacy. You agree to use medicines only as prescribed, to attend monitoring tests and reviews, and to tell us promptly about side effects or changes in your health.",
      "We may pause or stop treatment if monitoring is not completed or if continuing would not be safe.",
    ]),
    section("payments", "6. Payments", [
      "Payments are taken by card. If a payment fails, we retry it automatically and tell you by email; you can update your card details in your account. Refunds and cancellations of test kits are covered by our refund policy.",
    ]),
    section("liability", "7. Our responsibility to you", [
      "We provide our services with reasonable care and skill. Nothing in these terms limits our liability for death or personal injury caused by negligence, for fraud, or for anything else that cannot be limited by law. These terms do not affect your statutory rights.",
    ]),
    section("force-majeure", "8. Events outside our control", [
      "We are not responsible for delays caused by events outside our reasonable control. If such an event lasts over one month, either of us may end the agreement by giving one month's notice in writing.",
    ]),
    section("law", "9. Law and complaints", [
      `These terms are governed by the law of England and Wales. If you have a complaint, email ${clinic.email} and we will look into it and reply in writing.`,
    ]),
  ],
};
