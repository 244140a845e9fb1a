import { type PolicyDocument, list, section, table } from "./policy-types.ts";
import { clinic, postalAddress } from "../clinic.ts";

export const privacyPolicy: PolicyDocument = {
  lastUpdated: "January 2025",
  version: "1.0",
  intro: [
    `${clinic.legalName} ("${clinic.name}", "we", "us") respects your privacy. This policy explains what personal data we collect, why we collect it, how long we keep it and the rights you have under UK data protection law (the UK GDPR and the Data Protection Act 2018).`,
  ],
  sections: [
    section("who-we-are", "Who we are", [
      `We are the data controller for the personal data described here. You can contact us, including our data protection officer, at ${clinic.email} or by post at ${postalAddress}.`,
    ]),
    section("data-we-collect", "The data we collect", [
      "We collect three kinds of personal data:",
      list(
        "Personal details: your name, email address, telephone number, date of birth and postal address.",
        "Medical information: your symptoms, medical history, medicines, blood test results, consultation notes and prescriptions. This is special category data and we protect it with extra care.",
        "Digital information: your IP address, browser type, the pages you visit and the choices you make about cookies.",
      ),
      "Before we open, we only collect what you send us through the register-interest form (your name, email and, if you choose, your telephone number and a message) and the technical data any website receives.",
      "If you allowed analytics in the cookie banner, your registration also records where your visit came from: the campaign tags in the link you arrived by (utm_source, utm_medium and utm_campaign) and the name of the website that sent you, not the page. We use it only to count which campaigns and sites bring registrations (your consent). It stays on our own systems, is never shared with another company, and is kept and deleted with your registration. Without that permission we record none of it.",
    ]),
    section("how-we-use", "How we use your data and our lawful basis", [
      list(
        "To tell you when our services open, because you asked us to (consent). You can withdraw consent at any time.",
        "To provide consultations, tests and treatment (contract, and for medical information, the provision of health care under UK GDPR Article 9(2)(h)).",
        "To keep medical records and meet our duties to regulators such as the CQC and the GMC (legal obligation).",
        "To keep the website secure and working (legitimate interests).",
      ),
      "We never sell your data and we never use your medical information for marketing.",
    ]),
    section("sharing", "Who we share it with", [
      "We share data only where needed to care for you or to run the service: accredited laboratories that analyse your samples, the pharmacy that dispenses your prescription, delivery partners, secure IT and email providers, and your GP if you agree. Each works under a contract that protects your data. We may also share data where the law requires it.",
      "Our providers store data in the UK or the European Economic Area. If data ever moves elsewhere, we use safeguards approved under UK law.",
    ]),
    section("retention", "How long we keep it", [
      table(
        "Retention periods",
        ["Type of data", "How long we keep it"],
        [
          ["Medical records", "At least 8 years after your last contact with us"],
          ["Administrative data (billing, correspondence)", "3 years"],
          ["Website data (logs, registrations of interest)", "12-24 months"],
        ],
      ),
      "Medical records are kept for at least 8 years because NHS and professional guidance requires it. When a period ends we delete the data securely or make it anonymous.",
    ]),
    section("your-rights", "Your rights", [
      "You have the right to:",
      list(
        "ask for a copy of the data we hold about you;",
        "ask us to correct data that is wrong or incomplete;",
        "ask us to delete your data, unless we must keep it by law (for example medical records);",
        "object to or ask us to restrict how we use your data;",
        "ask us to move your data to another provider;",
        "withdraw your consent at any time.",
      ),
      `To use any of these rights, email ${clinic.email}. We answer every request within one month. If you are unhappy with how we handle your data, you can complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).`,
    ]),
    section("security", "Keeping your data safe", [
      "We encrypt data in transit and at rest, limit access to staff who need it, and train our team in confidentiality. Clinicians are bound by professional duties of confidentiality.",
    ]),
    section("changes", "Changes to this policy", [
      "We will update this policy when our services launch and whenever our practices change. The date and version at the top show when it last changed.",
    ]),
  ],
};
