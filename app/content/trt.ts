import { Brain, Dumbbell, Flame, HeartHandshake, type LucideIcon, Moon, Zap } from "lucide-react";

const point = (icon: LucideIcon, title: string, body: string) => ({ icon, title, body });

export const trtIntro =
  "Testosterone replacement therapy (TRT) restores testosterone to a healthy range in men whose bodies no longer make enough. Done well, it can change how you feel day to day.";

export const whatIsTrt = {
  title: "What is TRT?",
  paragraphs: [
    "Testosterone is the main male sex hormone. It affects energy, mood, sex drive, muscle, bone and the way your body stores fat. Levels fall slowly with age, and faster with some medical conditions, weight gain, poor sleep and some medicines.",
    "When blood tests confirm that levels are low and you have symptoms, a doctor may prescribe testosterone to bring them back to a normal range. Treatment is usually long term and always needs regular blood tests.",
  ],
};

export const benefits = {
  title: "Possible benefits",
  intro: "In men with confirmed low testosterone, treatment may help with:",
  items: [
    point(Zap, "Energy", "Less fatigue and more drive through the day."),
    point(Brain, "Mood and focus", "A lift in low mood and irritability, and clearer thinking."),
    point(Flame, "Sex drive", "Improved libido and sexual function."),
    point(Dumbbell, "Strength", "More muscle and strength with exercise, and less body fat."),
    point(Moon, "Recovery", "Better recovery from exercise and everyday exertion."),
    point(HeartHandshake, "Long-term health", "Support for bone density and metabolic health."),
  ],
};

export const impactAreas = {
  title: "Where it shows in daily life",
  intro:
    "How much men typically notice a change in each area once treatment has settled. Your own experience may differ.",
  items: [
    {
      area: "Energy and motivation",
      impact: "Very High",
      body: "Getting through the working day without the afternoon slump, and having energy left for the evening.",
    },
    {
      area: "Sex drive and intimacy",
      impact: "Very High",
      body: "Interest in sex often returns, which many men say helps their relationships.",
    },
    {
      area: "Mood and confidence",
      impact: "High",
      body: "Feeling more like yourself: calmer, less irritable, more willing to take things on.",
    },
    {
      area: "Training and body shape",
      impact: "High",
      body: "Workouts pay off again, with gains in strength and a gradual fall in body fat.",
    },
    {
      area: "Concentration at work",
      impact: "Medium",
      body: "Sharper focus and less brain fog for some men, especially where mood was low.",
    },
    {
      area: "Sleep quality",
      impact: "Medium",
      body: "Some men sleep better, though sleep apnoea must be checked and treated first.",
    },
  ],
} as const;

export const candidates = {
  title: "Who may be a candidate?",
  intro: "TRT may be suitable if all of the following apply to you:",
  criteria: [
    "You are a man aged 18 or over living in the UK.",
    "You have symptoms of low testosterone, such as tiredness, low mood, low sex drive or erectile problems.",
    "Two morning blood tests, at least four weeks apart, show total testosterone below 12 nmol/L.",
    "Other causes, such as thyroid problems or medicines, have been considered.",
  ],
  notSuitable: {
    title: "TRT is usually not advised if you:",
    items: [
      "are trying for a baby now or in the near future, as testosterone lowers sperm production;",
      "have, or are being investigated for, prostate or breast cancer;",
      "have a raised red blood cell count, or untreated severe sleep apnoea;",
      "have had a heart attack or stroke in the last six months.",
    ],
  },
};

export const trtCta = {
  title: "Think TRT could help you?",
  body: "Register your interest and we will let you know as soon as consultations open.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
  secondary: { label: "Take the ADAM Quiz", to: "/quiz" },
};

export const trtLinks = {
  consultation: { label: "What you need for a consultation", to: "/consultation" },
  // The specification's /how-it-works does not exist: the three steps are here (decision 011).
  howItWorks: { label: "How it works", to: "/our-approach" },
  treatments: { label: "Compare treatment options", to: "/treatment-options" },
};
