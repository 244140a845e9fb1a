import { Activity, ClipboardList, TestTube, Video } from "lucide-react";

export const servicesIntro =
  "Everything you need to find out whether low testosterone is behind your symptoms, and to be treated safely if it is.";

export const services = [
  {
    id: "consultations",
    icon: Video,
    title: "Specialist Consultations",
    summary:
      "An unhurried video consultation with a GMC-registered doctor who reviews your symptoms, history and blood results.",
    includes: [
      "A 45-minute video call at a time that suits you",
      "A clear explanation of your results",
      "An honest recommendation, even if that is not treatment",
    ],
    link: { label: "What you need for a consultation", to: "/consultation" },
  },
  {
    id: "blood-testing",
    icon: TestTube,
    title: "Blood Testing",
    summary:
      "Accurate morning blood tests, at home with a finger-prick kit or by a nurse at a partner clinic.",
    includes: [
      "Total and free testosterone, LH, FSH and SHBG",
      "General health markers such as blood count and PSA",
      "Results explained by a doctor, not just a printout",
    ],
    link: { label: "See test prices", to: "/pricing" },
  },
  {
    id: "treatment-plans",
    icon: ClipboardList,
    title: "Personalised Treatment Plans",
    summary:
      "If treatment is right for you, a plan shaped around your results, your routine and your goals.",
    includes: [
      "A choice of injectable, topical or oral treatment",
      "Doses set from your results, not a template",
      "Discreet delivery to your door",
    ],
    link: { label: "Compare treatment options", to: "/treatment-options" },
  },
  {
    id: "ongoing-care",
    icon: Activity,
    title: "Ongoing Care and Monitoring",
    summary:
      "Regular blood tests and reviews that keep your treatment safe and working as it should.",
    includes: [
      "Monitoring tests at 6 weeks, then 3, 6 and 12 months",
      "Review calls with your doctor",
      "Dose changes as your body responds",
    ],
    link: { label: "How we monitor treatment", to: "/our-approach#ongoing-care" },
  },
];

export const speedToTreatment = {
  title: "Faster access to specialist care",
  ours: { figure: "6-8 weeks", label: "Typical time from first blood test to treatment with us" },
  nhs: { figure: "up to 12 months", label: "The wait some men face for NHS specialist care" },
  note: "Timings are a guide once we open. They depend on your test results and how soon you can take your blood tests.",
};

export const servicesCta = {
  title: "Be first to know when we open",
  body: "Register your interest and we will contact you as soon as our services are available.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
};
