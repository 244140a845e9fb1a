// REPLACE BEFORE LAUNCH: both people are placeholders. Give each clinician's real name, role,
// qualifications (as on the GMC register), a short bio and initials.
export const teamIntro =
  "A small team of doctors with a shared interest in men's hormone health. You will see the same faces at every review.";

export const teamMembers = [
  {
    id: "medical-director",
    name: "Dr Alex Morgan",
    role: "Medical Director",
    qualifications: "MBBS, MRCP (UK)",
    bio: [
      "Alex trained in general medicine and endocrinology in London, with a focus on disorders of the pituitary and testes.",
      "Alex leads the clinic's treatment protocols and reviews every new plan before it starts.",
    ],
    initials: "AM",
  },
  {
    id: "lead-clinician",
    name: "Dr Sam Patel",
    role: "Lead Clinician, Men's Health",
    qualifications: "MBChB, MRCGP",
    bio: [
      "Sam is a GP with a long-standing interest in men's health, sexual health and weight management.",
      "Sam runs the consultation service and makes sure follow-up care stays personal and unhurried.",
    ],
    initials: "SP",
  },
];

export const teamCta = {
  title: "Be among the first to meet the team",
  body: "Register your interest and we will let you know when consultations open.",
  primary: { label: "Register Your Interest", to: "/register-interest" },
};
