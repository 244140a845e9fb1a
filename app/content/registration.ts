import { clinic } from "./clinic.ts";

// The consent wording by version (decision 089): a registration stores the version it was shown,
// so a changed wording gets a new version and the old one stays here.
export const consentWordings = {
  "2026-11-23": {
    text: "We will email you now to confirm your address and once more when we open, and use a phone number or question only to reply.",
    linkText: "Read our privacy policy",
    updatesLabel: "Send me occasional news before we open",
  },
} as const;

export type ConsentVersion = keyof typeof consentWordings;

export const currentConsentVersion: ConsentVersion = "2026-11-23";
const consentWording = consentWordings[currentConsentVersion];

/** The version a form says it showed, if we know it; otherwise the current one. */
export function consentVersionOf(value: string): ConsentVersion {
  return Object.hasOwn(consentWordings, value) ? (value as ConsentVersion) : currentConsentVersion;
}

export const registrationCopy = {
  intro: `Leave your details and we will let you know as soon as ${clinic.name} opens. There is no payment and no commitment.`,
  formTitle: "Your details",
  nextStepsTitle: "What happens next",
  nextSteps: [
    "We email you a link to confirm your address. Open it within 7 days.",
    "When we are registered with the CQC and open, we send you one email.",
    "If you left a phone number or a question, a member of our team will get back to you.",
  ],
  required: 'Fields without "(optional)" are required.',
  fields: {
    name: { label: "Full name", autoComplete: "name" },
    email: {
      label: "Email address",
      autoComplete: "email",
      hint: "We will email you once to confirm it, and once more when we open.",
    },
    phone: {
      label: "Phone number",
      autoComplete: "tel",
      hint: "Only if you would like a call back. UK or international format.",
    },
    message: {
      label: "Anything you would like us to know",
      hint: "For example a question about our services. Please do not include medical details such as symptoms, test results or medicines: we will ask for those safely when you book.",
    },
  },
  optional: "(optional)",
  submit: "Register Interest",
  pending: "Sending...",
  consent: consentWording,
  updates: {
    label: consentWording.updatesLabel,
    hint: "Only now and then, and you can stop them at any time.",
  },
  /** Toasts and messages from the specification (sections 5, 7 and 8). */
  toasts: {
    missingRequired: "Please fill in all required fields",
    success: "Thank you! We'll notify you when we launch.",
    failure: "There was an error submitting your registration. Please try again.",
  },
  /** Shown in the form after a final failure, so the reason outlives the toast. */
  failureNote:
    "Your registration has not been sent yet. Everything you typed is still here: please try again in a moment.",
  unavailable:
    "We cannot save registrations right now because of a problem on our side. Nothing you typed has been lost: please try again in a minute.",
  thankYou: {
    title: "Thank you for registering",
    body: "We have your details. Here is what happens next.",
    steps: [
      "Check your inbox: we have sent you an email. Open the link in it within 7 days to confirm your address. If it has not arrived in a few minutes, look in your spam folder.",
      "When we are registered with the CQC and open, we will send you one email to say so.",
    ],
    meanwhileTitle: "While you wait",
    meanwhile: [
      { text: "Take the two-minute symptom quiz", to: "/quiz" },
      { text: "Read what blood tests you will need", to: "/consultation#requirements" },
    ],
    home: "Return to Homepage",
  },
} as const;

export const registrationErrors = {
  nameRequired: "Please enter your name.",
  nameTooLong: "Please keep your name to 100 characters or fewer.",
  emailRequired: "Please enter your email address.",
  emailInvalid: "Please enter a valid email address, like name@example.co.uk.",
  emailTooLong: "Please keep your email address to 254 characters or fewer.",
  emailPartTooLong:
    "Please check your email address: email allows at most 64 characters before the @, and at most 63 between any two dots after it.",
  phoneInvalid:
    "Please enter a phone number using digits, spaces and + ( ) - . only, like 07700 900123.",
  phoneTooLong: "Please keep your phone number to 20 characters or fewer.",
  messageTooLong: "Please keep your message to 2,000 characters or fewer.",
} as const;
