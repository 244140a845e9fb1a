// UK medicines-advertising rules (CAP Code 12.12, MHRA Blue Guide): never name a
// prescription-only medicine or quote a medicine price on the home page.
import { Award, ShieldCheck, Stethoscope } from "lucide-react";

export const homeHero = {
  eyebrow: "Specialist men's health clinic",
  headline: "Expert TRT for the Modern Man",
  subline:
    "Holistic testosterone therapy led by doctors: a careful assessment, clear blood testing and a treatment plan that looks at your whole health, not just one number.",
  primaryCta: { label: "Register Your Interest", to: "/register-interest" },
  secondaryCta: { label: "Learn About Our Services", to: "/services" },
};

export const quizCard = {
  title: "Not sure if you have symptoms?",
  body: "Our ten-question ADAM quiz looks at the common signs of low testosterone, such as low energy, low mood and reduced drive. It takes about two minutes and your answers stay on your device.",
  cta: { label: "Take the ADAM Quiz", to: "/quiz" },
};

export const homeSteps = {
  title: "How it will work",
  intro: "Three clear steps, from your first questions to ongoing care.",
  steps: [
    {
      title: "Assessment",
      body: "Morning blood tests and a video consultation with a doctor who looks at your symptoms and history.",
    },
    {
      title: "Personal plan",
      body: "If treatment is right for you, a plan built around your results, your routine and your goals.",
    },
    {
      title: "Ongoing care",
      body: "Regular blood tests and reviews, so your care stays safe and keeps working for you.",
    },
  ],
  link: { label: "Read about our approach", to: "/our-approach" },
};

export const trustSection = {
  title: "More Than Just a TRT Clinic",
  intro:
    "Low testosterone rarely travels alone. Sleep, weight, stress and heart health all play a part, so we look at the whole picture and stay with you for the long term.",
  points: [
    {
      icon: Stethoscope,
      title: "GMC Registered",
      body: "Every consultation is with a doctor registered with the General Medical Council.",
    },
    {
      icon: ShieldCheck,
      title: "MHRA Compliant",
      body: "Treatment will be prescribed and supplied in line with the rules of the medicines regulator.",
    },
    {
      icon: Award,
      title: "Specialist Experience",
      body: "Our clinicians have years of experience in men's hormone health and endocrinology.",
    },
  ],
  // Beside `clinic.rating`. SUBSTANTIATE BEFORE LAUNCH: keep evidence of where the rating
  // comes from (ASA rules), or set it aside (decision 012).
  ratingLabel: "Patient rating",
  cta: { label: "Learn About Our Team", to: "/team" },
};

export const closingCta = {
  title: "Join Our Waiting List",
  body: "We will open once we are registered with the Care Quality Commission. Register your interest today and we will let you know as soon as consultations are available. There is no cost and no commitment.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
  secondary: { label: "Explore Our Services", to: "/services" },
};
