/** The words of the register-interest page: labels, hints, messages and the privacy notice. */
export const registrationCopy = {
  intro:
    "Leave your details and we will let you know as soon as Meridian Men's Health opens. There is no payment and no commitment.",
  formTitle: "Your details",
  nextStepsTitle: "What happens next",
  nextSteps: [
    "We keep your details safely and use them only for this.",
    "When we are registered with the CQC and open, we send you one email.",
    "If you left a phone number or a question, a member of our team will get back to you.",
  ],
  required: 'Fields without "(optional)" are required.',
  fields: {
    name: { label: "Full name", autoComplete: "name" },
    email: {
      label: "Email address",
      autoComplete: "email",
      hint: "We will write to you once, when we open.",
    },
    phone: {
      label: "Phone number",
      autoComplete: "tel",
      hint: "Only if you would like a call back. UK or international format.",
    },
    message: {
      label: "Anything you would like us to know",
      hint: "For example a question about our services. Please do not include medical details.",
    },
  },
  optional: "(optional)",
  submit: "Register Interest",
  pending: "Sending...",
  privacy: {
    text: "We use your details only to tell you when we open and to answer your message. We do not share them for marketing, and you can ask us to delete them at any time.",
    linkText: "Read our privacy policy",
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
    body: "We have your details and will let you know as soon as our services are available. You do not need to do anything else.",
    home: "Return to Homepage",
  },
} as const;

/** Field error messages, worded for the person filling in the form. */
export const registrationErrors = {
  nameRequired: "Please enter your name.",
  nameTooLong: "Please keep your name to 100 characters or fewer.",
  emailRequired: "Please enter your email address.",
  emailInvalid: "Please enter a valid email address, like name@example.co.uk.",
  emailTooLong: "Please keep your email address to 254 characters or fewer.",
  phoneInvalid:
    "Please enter a phone number using digits, spaces and + ( ) - . only, like 07700 900123.",
  phoneTooLong: "Please keep your phone number to 20 characters or fewer.",
  messageTooLong: "Please keep your message to 2,000 characters or fewer.",
} as const;
