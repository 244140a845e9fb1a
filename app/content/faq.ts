/** Feeds both the page and its FAQPage structured data. */
import type { QuestionAnswer } from "./content-types.ts";

export type FaqGroup = { id: string; title: string; items: QuestionAnswer[] };

export const faqIntro =
  "Straight answers to the questions men ask us most. If yours is not here, our team is happy to help.";

export const faqGroups: FaqGroup[] = [
  {
    id: "getting-started",
    title: "Getting Started",
    items: [
      {
        id: "when-open",
        question: "When can I start?",
        answer: [
          "We will open once we are registered with the Care Quality Commission (CQC). Until then we cannot offer consultations, tests or treatment.",
          "If you register your interest, we will email you as soon as bookings open.",
        ],
      },
      {
        id: "first-step",
        question: "What is the first step?",
        answer: [
          "The first step is a blood test. We need two morning testosterone results, taken before 10am and at least four weeks apart, before a doctor can consider treatment.",
          "You then have a video consultation with one of our doctors, who reviews your symptoms, history and results with you.",
        ],
      },
      {
        id: "gp-referral",
        question: "Do I need a referral from my GP?",
        answer: [
          "No. You can come to us directly. With your permission we will write to your GP after your consultation, so your records stay complete and your care stays safe.",
        ],
      },
      {
        id: "who-eligible",
        question: "Who can use the clinic?",
        answer: [
          "Men aged 18 or over who live in the UK. Treatment is only prescribed when blood tests and symptoms both show that it is appropriate.",
        ],
      },
    ],
  },
  {
    id: "health-and-hormones",
    title: "Health & Hormones",
    items: [
      {
        id: "symptoms",
        question: "What are the symptoms of low testosterone?",
        answer: [
          "Common symptoms include tiredness, low mood, irritability, poor concentration, reduced sex drive, erectile problems, loss of muscle and gaining fat around the middle.",
          "These symptoms have many possible causes, which is why blood tests are essential. Our ADAM quiz is a quick first check.",
        ],
      },
      {
        id: "how-often-injections",
        question: "How often would I need injections?",
        answer: [
          "Most men on injectable treatment inject two to three times per week. Smaller, more frequent doses keep levels steadier and usually mean fewer side effects.",
          "A long-acting injection given every 10 to 14 weeks in a clinic is another option for some men. Gels and creams are applied daily instead.",
        ],
      },
      {
        id: "side-effects",
        question: "Are there side effects?",
        answer: [
          "Possible side effects include a rise in red blood cells, acne or oily skin, fluid retention, breast tenderness and reduced fertility. Most can be managed by adjusting the dose.",
          "Regular blood tests are how we spot these early, which is why monitoring is part of every plan.",
        ],
      },
      {
        id: "fertility",
        question: "Will TRT affect my fertility?",
        answer: [
          "Yes, it can. Testosterone treatment reduces sperm production. If you hope to have children soon, tell your doctor: there are other approaches that protect fertility.",
        ],
      },
      {
        id: "lifelong",
        question: "Is treatment for life?",
        answer: [
          "Often it is long term, but not always. Some men improve their levels by treating a cause such as weight or poor sleep. Your doctor will review whether you still need treatment at each annual review.",
        ],
      },
    ],
  },
  {
    id: "support",
    title: "Support",
    items: [
      {
        id: "questions-between",
        question: "Who do I contact between reviews?",
        answer: [
          "Our clinical team answers messages by phone and email during opening hours, Monday to Friday. Urgent medical concerns should always go to your GP, NHS 111 or, in an emergency, 999.",
        ],
      },
      {
        id: "change-treatment",
        question: "Can I change my treatment type later?",
        answer: [
          "Yes. If your current treatment does not suit your routine or you have side effects, your doctor can discuss switching at a review call.",
        ],
      },
      {
        id: "travel",
        question: "What if I travel or move abroad?",
        answer: [
          "Short trips are usually straightforward; we can give you a letter for carrying medicines. We can only treat people who live in the UK, so moving abroad would end your membership.",
        ],
      },
    ],
  },
  {
    id: "logistics",
    title: "Logistics",
    items: [
      {
        id: "delivery",
        question: "How are tests and treatment delivered?",
        answer: [
          "Test kits and treatment are sent by post in plain packaging that fits through a letterbox. You can choose standard, priority or tracked delivery; see our shipping policy for times and costs.",
        ],
      },
      {
        id: "blood-tests-where",
        question: "Where do I have my blood tests?",
        answer: [
          "You can use a finger-prick kit at home, or have a venous sample taken by a nurse at a partner clinic. Samples should be taken before 11am, with no hard exercise for 48 hours before. The two tests that confirm low testosterone need the earlier time, before 10am, when levels are highest; for monitoring tests once you are on treatment, before 11am is early enough.",
        ],
      },
      {
        id: "failed-payment",
        question: "What happens if a payment fails?",
        answer: [
          "A failed payment is retried automatically over the following days, and we will let you know by email. You can update your card details at any time in your account.",
        ],
      },
      {
        id: "cancel",
        question: "Can I cancel my membership?",
        answer: [
          "Membership has a 6-month minimum term and then rolls monthly. After that you can cancel with 30 days' notice. Our terms of service give the full details.",
        ],
      },
    ],
  },
];

export const faqContact = {
  title: "Still have a question?",
  body: "Our team will be glad to help with anything not covered here.",
  cta: { label: "Contact Our Team", to: "/contact" },
};
