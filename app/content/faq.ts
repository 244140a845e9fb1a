/** Feeds both the page and its FAQPage structured data. */
const qa = (id: string, question: string, answer: string[]) => ({ id, question, answer });
const group = (id: string, title: string, items: ReturnType<typeof qa>[]) => ({ id, title, items });

export const faqIntro =
  "Straight answers to the questions men ask us most. If yours is not here, our team is happy to help.";

export const faqGroups = [
  group("getting-started", "Getting Started", [
    qa("when-open", "When can I start?", [
      "We will open once we are registered with the Care Quality Commission (CQC). Until then we cannot offer consultations, tests or treatment.",
      "If you register your interest, we will email you as soon as bookings open.",
    ]),
    qa("first-step", "What is the first step?", [
      "The first step is a blood test. We need two morning testosterone results, taken before 10am and at least four weeks apart, before a doctor can consider treatment.",
      "You then have a video consultation with one of our doctors, who reviews your symptoms, history and results with you.",
    ]),
    qa("gp-referral", "Do I need a referral from my GP?", [
      "No. You can come to us directly. With your permission we will write to your GP after your consultation, so your records stay complete and your care stays safe.",
    ]),
    qa("who-eligible", "Who can use the clinic?", [
      "Men aged 18 or over who live in the UK. Treatment is only prescribed when blood tests and symptoms both show that it is appropriate.",
    ]),
  ]),
  group("health-and-hormones", "Health & Hormones", [
    qa("symptoms", "What are the symptoms of low testosterone?", [
      "Common symptoms include tiredness, low mood, irritability, poor concentration, reduced sex drive, erectile problems, loss of muscle and gaining fat around the middle.",
      "These symptoms have many possible causes, which is why blood tests are essential. Our ADAM quiz is a quick first check.",
    ]),
    qa("how-often-injections", "How often would I need injections?", [
      "Most men on injectable treatment inject two to three times per week. Smaller, more frequent doses keep levels steadier and usually mean fewer side effects.",
      "A long-acting injection given every 10 to 14 weeks in a clinic is another option for some men. Gels and creams are applied daily instead.",
    ]),
    qa("side-effects", "Are there side effects?", [
      "Possible side effects include a rise in red blood cells, acne or oily skin, fluid retention, breast tenderness and reduced fertility. Most can be managed by adjusting the dose.",
      "Regular blood tests are how we spot these early, which is why monitoring is part of every plan.",
    ]),
    qa("fertility", "Will TRT affect my fertility?", [
      "Yes, it can. Testosterone treatment reduces sperm production. If you hope to have children soon, tell your doctor: there are other approaches that protect fertility.",
    ]),
    qa("lifelong", "Is treatment for life?", [
      "Often it is long term, but not always. Some men improve their levels by treating a cause such as weight or poor sleep. Your doctor will review whether you still need treatment at each annual review.",
    ]),
  ]),
  group("support", "Support", [
    qa("questions-between", "Who do I contact between reviews?", [
      "Our clinical team answers messages by phone and email during opening hours, Monday to Friday. Urgent medical concerns should always go to your GP, NHS 111 or, in an emergency, 999.",
    ]),
    qa("change-treatment", "Can I change my treatment type later?", [
      "Yes. If your current treatment does not suit your routine or you have side effects, your doctor can discuss switching at a review call.",
    ]),
    qa("travel", "What if I travel or move abroad?", [
      "Short trips are usually straightforward; we can give you a letter for carrying medicines. We can only treat people who live in the UK, so moving abroad would end your membership.",
    ]),
  ]),
  group("logistics", "Logistics", [
    qa("delivery", "How are tests and treatment delivered?", [
      "Test kits and treatment are sent by post in plain packaging that fits through a letterbox. You can choose standard, priority or tracked delivery; see our shipping policy for times and costs.",
    ]),
    qa("blood-tests-where", "Where do I have my blood tests?", [
      "You can use a finger-prick kit at home, or have a venous sample taken by a nurse at a partner clinic. Samples should be taken before 11am, with no hard exercise for 48 hours before. The two tests that confirm low testosterone need the earlier time, before 10am, when levels are highest; for monitoring tests once you are on treatment, before 11am is early enough.",
    ]),
    qa("failed-payment", "What happens if a payment fails?", [
      "A failed payment is retried automatically over the following days, and we will let you know by email. You can update your card details at any time in your account.",
    ]),
    qa("cancel", "Can I cancel my membership?", [
      "Membership has a 6-month minimum term and then rolls monthly. After that you can cancel with 30 days' notice. Our terms of service give the full details.",
    ]),
  ]),
];

export const faqContact = {
  title: "Still have a question?",
  body: "Our team will be glad to help with anything not covered here.",
  cta: { label: "Contact Our Team", to: "/contact" },
};
