export const contactIntro =
  "Questions about our services or your registration? We are happy to help. There is no form: call or email us and a member of our team will reply.";

export const contactDetails = {
  title: "How to reach us",
  addressLabel: "Address",
  phoneLabel: "Telephone",
  emailLabel: "Email",
  hoursTitle: "Opening hours",
  responseNote: "We aim to reply to emails within one working day.",
};

export const urgentAdvice = {
  title: "Need urgent medical help?",
  body: "We are not an emergency service and cannot give medical advice before we open. For urgent health concerns, contact your GP or call NHS 111. In an emergency, call 999.",
};

export const contactCta = {
  title: "Ready when you are",
  body: "Register your interest and we will tell you as soon as consultations open.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
  secondary: { label: "Read the FAQ", to: "/faq" },
};
