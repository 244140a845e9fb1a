/**
 * Prices, the provider comparison and the cost breakdown for /pricing.
 * Every figure is from the specification (section 9) unless a comment says otherwise.
 * While `siteFlags.showPricing` is false the page presents them as indicative.
 */

export type TreatmentKey =
  | "testosterone-cypionate"
  | "testosterone-enanthate"
  | "sustanon"
  | "nebido"
  | "scrotal-cream"
  | "testosterone-gel";

export type AddOnKey = "hcg-low" | "hcg-high" | "aromatase-inhibitor" | "tadalafil";

export type TreatmentOption = {
  key: TreatmentKey;
  name: string;
  /** How it is taken, shown under the name. */
  form: string;
  monthlyPrice: number;
  yearlyTotal: number;
};

export type AddOn = {
  key: AddOnKey;
  name: string;
  /** What it is for, in a few words. */
  purpose: string;
  monthlyPrice: number;
};

export const DEFAULT_TREATMENT: TreatmentKey = "testosterone-cypionate";

export const treatmentOptions: readonly TreatmentOption[] = [
  {
    key: "testosterone-cypionate",
    name: "Testosterone cypionate",
    form: "Injection, usually two to three times a week",
    monthlyPrice: 15,
    yearlyTotal: 180,
  },
  {
    key: "testosterone-enanthate",
    name: "Testosterone enanthate",
    form: "Injection, usually two to three times a week",
    monthlyPrice: 18,
    yearlyTotal: 216,
  },
  {
    key: "sustanon",
    name: "Sustanon",
    form: "Injection of blended testosterone esters",
    monthlyPrice: 25,
    yearlyTotal: 300,
  },
  {
    key: "nebido",
    name: "Nebido",
    form: "Long-acting injection given every few months",
    monthlyPrice: 45,
    yearlyTotal: 540,
  },
  {
    key: "scrotal-cream",
    name: "Scrotal cream",
    form: "Testosterone cream applied daily",
    monthlyPrice: 35,
    yearlyTotal: 420,
  },
  {
    key: "testosterone-gel",
    name: "Testosterone gel",
    form: "Gel applied to the skin daily",
    monthlyPrice: 40,
    yearlyTotal: 480,
  },
];

export const addOns: readonly AddOn[] = [
  {
    key: "hcg-low",
    name: "hCG, lower dose",
    purpose: "Helps keep your own hormone production going",
    monthlyPrice: 25,
  },
  {
    key: "hcg-high",
    name: "hCG, higher dose",
    purpose: "For men who also want to protect fertility",
    monthlyPrice: 45,
  },
  {
    key: "aromatase-inhibitor",
    name: "Aromatase inhibitor",
    purpose: "Only if blood tests show high oestradiol",
    monthlyPrice: 20,
  },
  {
    key: "tadalafil",
    name: "Tadalafil",
    purpose: "Daily support for erections",
    monthlyPrice: 15,
  },
];

/** Year-1 membership, which the calculator always includes (section 9). */
export const MEMBERSHIP_MONTHLY = 32;
export const MEMBERSHIP_YEARLY = 384;

/** Prices stated on the page (section 9). "From" prices are the lowest a visitor would pay. */
export const statedPrices = {
  consultation: 149,
  consultationMinutes: 45,
  bloodTestBasic: 29,
  bloodTestFull: 79,
  bloodDraw: 35,
  membershipYear1: 32,
  membershipYear2: 28,
  medicationFrom: 10,
  medicationTo: 60,
  postage: 6.5,
  starterPack: 30,
  monitoringTestFrom: 52,
  reviewCallFrom: 39,
  extraBloodTestFrom: 43,
} as const;

export type CostLine = {
  service: string;
  quantity: number;
  unitPrice: number;
  /** Why this line is here, in plain words. */
  description: string;
};

export type CostYear = {
  id: "year-1" | "year-2";
  title: string;
  summary: string;
  /** The stated total (section 9). A unit test checks the lines add up to it exactly. */
  statedTotal: number;
  lines: readonly CostLine[];
};

/**
 * An illustrative first and second year for a man on injections.
 * The specification states the totals (£1,485 and £1,140) and the unit prices;
 * the quantities are our worked example that reaches those totals exactly
 * (see docs/decisions/024-pricing-cost-breakdown.md).
 */
export const costYears: readonly CostYear[] = [
  {
    id: "year-1",
    title: "Year 1",
    summary:
      "Tests, your consultation, a starter pack, ten months of medication and close monitoring while your dose settles.",
    statedTotal: 1485,
    lines: [
      {
        service: "Initial consultation",
        quantity: 1,
        unitPrice: statedPrices.consultation,
        description: "A 45-minute video call with a clinician",
      },
      {
        service: "Pre-consultation blood test: testosterone",
        quantity: 1,
        unitPrice: statedPrices.bloodTestBasic,
        description: "The first of the two morning readings you need",
      },
      {
        service: "Pre-consultation blood test: full hormone panel",
        quantity: 1,
        unitPrice: statedPrices.bloodTestFull,
        description: "Total and free testosterone, LH, FSH and SHBG",
      },
      {
        service: "Blood draw",
        quantity: 1,
        unitPrice: statedPrices.bloodDraw,
        description: "A nurse takes a venous sample for the full panel",
      },
      {
        service: "Membership",
        quantity: 12,
        unitPrice: statedPrices.membershipYear1,
        description: "£32 a month in your first year",
      },
      {
        service: "Starter pack",
        quantity: 1,
        unitPrice: statedPrices.starterPack,
        description: "Your first month's supplies and instructions",
      },
      {
        service: "Medication, including postage",
        quantity: 10,
        unitPrice: 45,
        description: "The remaining months, at about £38.50 plus £6.50 postage",
      },
      {
        service: "Monitoring blood tests",
        quantity: 4,
        unitPrice: statedPrices.monitoringTestFrom,
        description: "At 6 weeks, then 3, 6 and 12 months",
      },
      {
        service: "Review calls",
        quantity: 2,
        unitPrice: statedPrices.reviewCallFrom,
        description: "To go through results and adjust your dose",
      },
      {
        service: "Extra blood test",
        quantity: 1,
        unitPrice: statedPrices.extraBloodTestFrom,
        description: "A repeat check, for example after a dose change",
      },
    ],
  },
  {
    id: "year-2",
    title: "Year 2",
    summary:
      "A lower membership fee, a full year of medication and twice-yearly monitoring once you are settled.",
    statedTotal: 1140,
    lines: [
      {
        service: "Membership",
        quantity: 12,
        unitPrice: statedPrices.membershipYear2,
        description: "£28 a month from your second year",
      },
      {
        service: "Medication, including postage",
        quantity: 12,
        unitPrice: 45,
        description: "About £38.50 plus £6.50 postage each month",
      },
      {
        service: "Monitoring blood tests",
        quantity: 2,
        unitPrice: statedPrices.monitoringTestFrom,
        description: "Twice a year once you are stable",
      },
      {
        service: "Review calls",
        quantity: 3,
        unitPrice: statedPrices.reviewCallFrom,
        description: "After each monitoring test, and a yearly review",
      },
      {
        service: "Extra blood test",
        quantity: 1,
        unitPrice: statedPrices.extraBloodTestFrom,
        description: "If your clinician wants a further check",
      },
    ],
  },
];

/** Costs that some men meet, outside the worked example (section 9). */
export const otherCosts: readonly { service: string; price: string; description: string }[] = [
  {
    service: "Monitoring blood tests",
    price: "from £52",
    description: "At 6 weeks, then 3, 6 and 12 months, then twice a year",
  },
  {
    service: "Review calls",
    price: "from £39",
    description: "A call with your clinician to go through results or change treatment",
  },
  {
    service: "Extra blood tests",
    price: "from £43",
    description: "When a further check is needed between routine tests",
  },
  {
    service: "Blood draw",
    price: "£35",
    description: "A venous sample taken by a nurse, when a finger-prick sample is not enough",
  },
  {
    service: "Postage",
    price: "about £6.50",
    description: "Tracked, discreet delivery of each month's medication",
  },
];

export type ComparisonRow = {
  category: string;
  ourClinic: string;
  otherClinics: string;
  nhs: string;
};

/**
 * The provider comparison. Our column and the NHS figures (speed, threshold) are from
 * the specification. The other-clinics column is deliberately general.
 * REPLACE BEFORE LAUNCH: check the "other clinics" and NHS cost wording against current
 * published prices; UK advertising rules (CAP Code 3.33-3.44) require comparative claims
 * to be verifiable.
 */
export const comparisonRows: readonly ComparisonRow[] = [
  {
    category: "Speed to treatment",
    ourClinic: "6-8 weeks",
    otherClinics: "Varies by clinic, often several weeks",
    nhs: "Up to 12 months",
  },
  {
    category: "Testosterone level for treatment",
    ourClinic: "Below 12 nmol/L on two morning tests, with symptoms",
    otherClinics: "Varies by clinic",
    nhs: "Usually under 8 nmol/L",
  },
  {
    category: "First consultation",
    ourClinic: "£149, a 45-minute video call",
    otherClinics: "Varies; often charged separately",
    nhs: "Free GP appointment, then a referral",
  },
  {
    category: "Monitoring",
    ourClinic: "Blood tests at 6 weeks, 3, 6 and 12 months, then twice a year",
    otherClinics: "Varies by clinic",
    nhs: "Set by your GP or specialist",
  },
  {
    category: "Typical cost per year",
    ourClinic: "£1,485 in year 1, £1,140 in year 2",
    otherClinics: "About £1,200 to £2,500",
    nhs: "No charge for care; prescription charges may apply",
  },
];

/** The figures behind the yearly-cost chart; they restate the comparison table. */
export const yearlyCostChart = {
  ours: [
    { label: "Meridian, year 1", amount: 1485 },
    { label: "Meridian, year 2", amount: 1140 },
  ],
  otherClinics: { label: "Other private clinics", min: 1200, max: 2500 },
  nhs: { label: "NHS", amount: 0, note: "No charge for care; prescription charges may apply" },
} as const;

/** The headline prices, shown as cards above the worked example (section 9). */
export const keyPrices: readonly { service: string; price: string; detail: string }[] = [
  {
    service: "Initial consultation",
    price: "£149",
    detail: "A 45-minute video call with a clinician (about 45-60 minutes in our terms)",
  },
  {
    service: "Pre-consultation blood tests",
    price: "£29 and £79",
    detail: "A testosterone check and a full hormone panel, plus £35 for a blood draw",
  },
  {
    service: "Membership",
    price: "£32 a month",
    detail: "In your first year, then £28 a month from your second year",
  },
  {
    service: "Medication",
    price: "£10 to £60 a month",
    detail: "Depending on treatment, including postage of about £6.50; a starter pack is about £30",
  },
];

export const pricingText = {
  lead: "What treatment would cost, set out in full before you commit to anything: consultation, blood tests, membership and medication.",
  indicative: "Prices will be confirmed at launch, and nothing can be bought or booked yet.",
  calculatorIntro:
    "Choose a treatment and any add-ons your clinician might suggest. The estimate includes your £32 monthly membership.",
  calculatorNote:
    "An estimate only. Your clinician recommends treatment after your consultation and blood tests.",
  breakdownIntro:
    "A worked example for a man on injectable treatment, using our stated prices. Your own costs depend on your treatment and how often you need tests.",
  otherCostsIntro: "Some men need extra tests or calls. These are charged only when you need them.",
} as const;
