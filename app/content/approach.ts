import { HeartPulse, Microscope, Scale, UserRound } from "lucide-react";

export const approachIntro =
  "Testosterone therapy works best when it is started for the right reasons, at the right dose, and watched closely afterwards. Everything we do follows from that.";

export const principles = {
  title: "Our principles",
  items: [
    {
      icon: Microscope,
      title: "Evidence first",
      body: "We follow specialist UK guidance, such as that of the British Society for Sexual Medicine. Decisions rest on repeated morning blood tests and your symptoms, never on a single number.",
    },
    {
      icon: UserRound,
      title: "Whole-person care",
      body: "Sleep, weight, stress, alcohol and other conditions all affect testosterone. We look at them alongside your hormones and help with what can change.",
    },
    {
      icon: Scale,
      title: "Honest advice",
      body: "If treatment is not right for you, we will say so and explain why. Sometimes the best step is to treat another cause first.",
    },
    {
      icon: HeartPulse,
      title: "Safety over speed",
      body: "Every plan includes regular checks of your blood count, prostate health and hormone levels, so side effects are caught early.",
    },
  ],
};

export const processSteps = {
  title: "Our three-step process",
  intro: "From your first blood test to long-term follow-up, you will always know what comes next.",
  steps: [
    {
      title: "Initial Assessment",
      summary:
        "Two sets of morning blood tests and a video consultation with one of our doctors, who reviews your symptoms, history and results with you.",
      details: [
        "Two testosterone results, at least four weeks apart, taken before 10am",
        "A full hormone panel and general health markers",
        "A conversation about your symptoms, goals and medical history",
      ],
    },
    {
      title: "Treatment Initiation",
      summary:
        "If treatment is appropriate, your doctor agrees a plan with you, explains how to use it and what to expect in the first weeks.",
      details: [
        "A choice of treatment type that suits your routine",
        "Clear written instructions and a named contact for questions",
        "A starting dose chosen from your results, not a standard template",
      ],
    },
    {
      title: "Ongoing Care",
      summary:
        "Regular blood tests and reviews keep your treatment safe and effective. We adjust the plan as your body responds.",
      details: [
        "Monitoring tests at 6 weeks, then at 3, 6 and 12 months",
        "Review calls to talk through results and symptoms",
        "Dose changes when your results or symptoms call for them",
      ],
    },
  ].map((step, i) => ({ number: i + 1, ...step })),
};

export type ProcessStep = (typeof processSteps.steps)[number];

export const ongoingCare = {
  id: "ongoing-care",
  title: "Ongoing care and monitoring",
  intro:
    "Treatment is only the start. In the first year we check your blood at set points, then continue with regular reviews for as long as you are treated.",
  milestones: [
    {
      when: "6 weeks",
      title: "First check",
      body: "Testosterone level, blood count and how you feel on your starting dose.",
    },
    {
      when: "3 months",
      title: "Settling in",
      body: "Repeat bloods and a review of symptoms. Most dose adjustments happen here.",
    },
    {
      when: "6 months",
      title: "Steady state",
      body: "A fuller panel including prostate and cardiovascular markers.",
    },
    {
      when: "12 months",
      title: "Annual review",
      body: "A full review of benefits, risks and your goals for the year ahead.",
    },
  ],
  afterwards:
    "After the first year, most men continue with blood tests and a review about twice a year, or sooner if anything changes. Our terms give a second, typical timetable (1 month to 6 weeks, then 4 and 7 months): both start with a check about six weeks in and end in tests twice a year, and your clinician sets your own dates between them around your dose changes.",
};

export const clinicalFoundation = {
  title: "Clinical foundation",
  paragraphs: [
    "Low testosterone (male hypogonadism) is diagnosed from symptoms together with repeated blood tests. Testosterone levels peak in the morning and vary from day to day, which is why we ask for two samples taken before 10am, at least four weeks apart.",
    "We treat when total testosterone is consistently below 12 nmol/L and symptoms fit, in line with specialist UK guidance. NHS services usually start treatment at a lower level, under 8 nmol/L, which is one reason some men with clear symptoms are not offered it.",
    "Before starting, we check for conditions that need a different approach, such as raised red blood cell counts, untreated sleep apnoea, prostate concerns, or a wish to father children soon.",
  ],
};

export const expectedOutcomes = {
  title: "What you can expect",
  intro:
    "Everyone responds differently, and we will talk through realistic goals with you. As a general guide:",
  items: [
    { when: "3 to 6 weeks", body: "Many men notice better mood, energy and interest in sex." },
    { when: "3 to 6 months", body: "Improvements in strength, stamina and body composition." },
    {
      when: "6 to 12 months",
      body: "Changes in muscle mass, fat distribution and bone density continue to build.",
    },
  ],
  caveat:
    "Treatment does not suit everyone, and no result can be promised. Your doctor will explain the possible side effects before you decide.",
};

export const approachCta = {
  title: "Start with a conversation",
  body: "Register your interest and we will let you know as soon as consultations open.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
  secondary: { label: "Meet the Team", to: "/team" },
};
