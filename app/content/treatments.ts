// Medicine names and costs belong on this deeper page, never on the home page.
export const treatmentsCostNote = {
  text: "These monthly ranges cover the brands and doses a doctor may prescribe, from a low starting dose to a high one. Our cost calculator prices one usual dose of one brand of each medicine, so its figures can sit at or below the low end of a range here.",
  link: { label: "Try the cost calculator", to: "/pricing#calculator" },
} as const;

export const treatmentsIntro =
  "There are three main ways to take testosterone. Each can work well; the right one depends on your results, your routine and your preferences. Your doctor will help you choose.";

export const treatmentOptions = [
  {
    id: "injectable",
    name: "Injectable TRT",
    effectiveness: "Excellent",
    benefits: "The most reliable way to reach and hold steady levels.",
    schedule: "Two to three small injections per week",
    cost: "£15-65 per month",
    description:
      "Testosterone injected into muscle or under the skin. It is the most widely used and best studied form of treatment, and the most affordable.",
    details:
      "Small doses two to three times per week keep levels even and side effects low. Most men learn to inject themselves at home within one or two sessions. A long-acting injection given every 10 to 14 weeks by a nurse is an alternative for some.",
    pros: [
      "Most predictable blood levels",
      "Lowest monthly cost",
      "Easy to fine-tune the dose",
      "Nothing to transfer to partners or children by skin contact",
    ],
    cons: [
      "Needs regular self-injection",
      "Some men dislike needles",
      "Long-acting injections must be given in a clinic",
    ],
    preparations: [
      "Testosterone cypionate",
      "Testosterone enanthate",
      "Sustanon 250 (mixed testosterone esters)",
      "Nebido (long-acting testosterone undecanoate)",
    ],
  },
  {
    id: "topical",
    name: "Topical Applications",
    effectiveness: "Good",
    benefits: "Needle-free daily treatment that mimics the body's own rhythm.",
    schedule: "Applied once a day, usually in the morning",
    cost: "£50-75 per month",
    description:
      "A gel or cream rubbed into the skin each day, where the testosterone is absorbed into the bloodstream.",
    details:
      "Gels are applied to the shoulders, upper arms or stomach; creams to a smaller area of thin skin. Absorption varies from person to person, so blood tests are timed two to four hours after applying a gel, or two hours after a cream.",
    pros: [
      "No needles",
      "Steady day-to-day levels when used consistently",
      "Simple to stop or adjust",
    ],
    cons: [
      "Must be applied every day",
      "Can pass to partners or children through skin contact until dry",
      "Absorption varies between people",
      "Higher monthly cost than injections",
    ],
    preparations: [
      "Testosterone gel 16.2 mg/g (Testogel)",
      "Testosterone gel 2% (Tostran)",
      "Testosterone cream, including scrotal application",
    ],
  },
  {
    id: "oral",
    name: "Oral Testosterone",
    effectiveness: "Moderate",
    benefits: "Capsules for men who cannot use injections or gels.",
    schedule: "Capsules twice a day with food",
    cost: "£90-200 per month",
    description:
      "Testosterone undecanoate capsules, absorbed through the gut's lymphatic system when taken with a meal containing fat.",
    details:
      "Oral treatment avoids needles and skin contact, but levels rise and fall through the day and depend on what you eat. It suits a smaller group of men, usually when other forms are not possible.",
    pros: ["No needles or gels", "Nothing to transfer to others", "Easy to carry when travelling"],
    cons: [
      "Levels are less predictable",
      "Must be taken with food, twice a day",
      "Highest monthly cost",
      "Fewer long-term studies than other forms",
    ],
    preparations: ["Testosterone undecanoate capsules 40 mg (Restandol Testocaps)"],
  },
] as const;

/** The medicines the preparations above name (tested): part of `prescriptionOnlyMedicines`. */
export const preparationMedicines =
  "testosterone cypionate enanthate undecanoate Sustanon Nebido Testogel Tostran Restandol Testocaps".split(
    " ",
  );

export const treatmentsCta = {
  title: "Not sure which is right for you?",
  body: "Your doctor will talk through every option at your consultation. Register your interest to hear when consultations open.",
  primary: { label: "Learn About Consultations", to: "/consultation" },
  secondary: { label: "Register Your Interest", to: "/register-interest" },
};
