/**
 * Prices, the provider comparison and the cost breakdown for /pricing.
 * Every figure is from the specification (section 9) unless a comment says otherwise.
 * While `siteFlags.showPricing` is false the page presents them as indicative.
 */
import { clinic } from "./clinic.ts";
import { formatGBP } from "./money.ts";

/** Each treatment's `form` (how it is taken) is shown under its name. */
export const treatmentOptions = [
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
] as const;

export type TreatmentOption = (typeof treatmentOptions)[number];
export type TreatmentKey = TreatmentOption["key"];
export const DEFAULT_TREATMENT: TreatmentKey = "testosterone-cypionate";

export const addOns = [
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
] as const;

export type AddOn = (typeof addOns)[number];
export type AddOnKey = AddOn["key"];

/** Prices stated on the page (section 9): each figure is written once, here, and every string below is built from it. "From" prices are the lowest a visitor would pay. */
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

/** Year-1 membership, which the calculator always includes (section 9). */
export const MEMBERSHIP_MONTHLY: number = statedPrices.membershipYear1;
export const MEMBERSHIP_YEARLY: number = MEMBERSHIP_MONTHLY * 12;

/** The worked example's medication: a mid-range injectable, postage included (decision 024). */
const EXAMPLE_MEDICATION = 45;
const p = statedPrices;

export type CostLine = {
  service: string;
  quantity: number;
  unitPrice: number;
  /** Why this line is here, in plain words. */
  description: string;
  /** The medication line: the calculator puts the visitor's own treatment in its place. */
  medication?: true;
};

export type CostYear = {
  id: "year-1" | "year-2";
  title: string;
  summary: string;
  /** The stated total (section 9). A unit test checks the lines add up to it exactly. */
  statedTotal: number;
  lines: readonly CostLine[];
};

const medicationLine = (quantity: number): CostLine => ({
  service: "Medication, including postage",
  quantity,
  unitPrice: EXAMPLE_MEDICATION,
  description: `A mid-range injectable at about ${formatGBP(EXAMPLE_MEDICATION - p.postage)} plus ${formatGBP(p.postage)} postage, within the ${formatGBP(p.medicationFrom)} to ${formatGBP(p.medicationTo)} a month that medication costs`,
  medication: true,
});

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
        unitPrice: p.consultation,
        description: `A ${p.consultationMinutes}-minute video call with a clinician`,
      },
      {
        service: "Pre-consultation blood test: testosterone",
        quantity: 1,
        unitPrice: p.bloodTestBasic,
        description: "The first of the two morning readings you need",
      },
      {
        service: "Pre-consultation blood test: full hormone panel",
        quantity: 1,
        unitPrice: p.bloodTestFull,
        description: "Total and free testosterone, LH, FSH and SHBG",
      },
      {
        service: "Blood draw",
        quantity: 1,
        unitPrice: p.bloodDraw,
        description: "A nurse takes a venous sample for the full panel",
      },
      {
        service: "Membership",
        quantity: 12,
        unitPrice: p.membershipYear1,
        description: `${formatGBP(p.membershipYear1)} a month in your first year`,
      },
      {
        service: "Starter pack",
        quantity: 1,
        unitPrice: p.starterPack,
        description: "Your first month's supplies and instructions",
      },
      medicationLine(10),
      {
        service: "Monitoring blood tests",
        quantity: 4,
        unitPrice: p.monitoringTestFrom,
        description: "At 6 weeks, then 3, 6 and 12 months",
      },
      {
        service: "Review calls",
        quantity: 2,
        unitPrice: p.reviewCallFrom,
        description: "To go through results and adjust your dose",
      },
      {
        service: "Extra blood test",
        quantity: 1,
        unitPrice: p.extraBloodTestFrom,
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
        unitPrice: p.membershipYear2,
        description: `${formatGBP(p.membershipYear2)} a month from your second year`,
      },
      medicationLine(12),
      {
        service: "Monitoring blood tests",
        quantity: 2,
        unitPrice: p.monitoringTestFrom,
        description: "Twice a year once you are stable",
      },
      {
        service: "Review calls",
        quantity: 3,
        unitPrice: p.reviewCallFrom,
        description: "After each monitoring test, and a yearly review",
      },
      {
        service: "Extra blood test",
        quantity: 1,
        unitPrice: p.extraBloodTestFrom,
        description: "If your clinician wants a further check",
      },
    ],
  },
];

/** Costs that some men meet, outside the worked example (section 9). */
export const otherCosts = [
  {
    service: "Monitoring blood tests",
    price: `from ${formatGBP(p.monitoringTestFrom)}`,
    description: "At 6 weeks, then 3, 6 and 12 months, then twice a year",
  },
  {
    service: "Review calls",
    price: `from ${formatGBP(p.reviewCallFrom)}`,
    description: "A call with your clinician to go through results or change treatment",
  },
  {
    service: "Extra blood tests",
    price: `from ${formatGBP(p.extraBloodTestFrom)}`,
    description: "When a further check is needed between routine tests",
  },
  {
    service: "Blood draw",
    price: formatGBP(p.bloodDraw),
    description: "A venous sample taken by a nurse, when a finger-prick sample is not enough",
  },
  {
    service: "Postage",
    price: `about ${formatGBP(p.postage)}`,
    description: "Tracked, discreet delivery of each month's medication",
  },
];

const [year1Total, year2Total] = costYears.map((y) => y.statedTotal) as [number, number];

/**
 * The provider comparison. Our column and the NHS figures (speed, threshold) are from
 * the specification. The other-clinics column is deliberately general.
 * REPLACE BEFORE LAUNCH: check the "other clinics" and NHS cost wording against current
 * published prices; UK advertising rules (CAP Code 3.33-3.44) require comparative claims
 * to be verifiable.
 */
export const comparisonRows = [
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
    ourClinic: `${formatGBP(p.consultation)}, a ${p.consultationMinutes}-minute video call`,
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
    ourClinic: `${formatGBP(year1Total)} in year 1, ${formatGBP(year2Total)} in year 2`,
    otherClinics: "About £1,200 to £2,500",
    nhs: "No charge for care; prescription charges may apply",
  },
];

/** The figures behind the yearly-cost chart; they restate the comparison table. */
export const yearlyCostChart = {
  ours: [
    { label: `${clinic.shortName}, year 1`, amount: year1Total },
    { label: `${clinic.shortName}, year 2`, amount: year2Total },
  ],
  otherClinics: { label: "Other private clinics", min: 1200, max: 2500 },
  nhs: { label: "NHS", amount: 0, note: "No charge for care; prescription charges may apply" },
} as const;

/** The headline prices, shown as cards above the worked example (section 9). */
export const keyPrices = [
  {
    service: "Initial consultation",
    price: formatGBP(p.consultation),
    detail: `A ${p.consultationMinutes}-minute video call with a clinician (about 45-60 minutes in our terms)`,
  },
  {
    service: "Pre-consultation blood tests",
    price: `${formatGBP(p.bloodTestBasic)} and ${formatGBP(p.bloodTestFull)}`,
    detail: `A testosterone check and a full hormone panel, plus ${formatGBP(p.bloodDraw)} for a blood draw`,
  },
  {
    service: "Membership",
    price: `${formatGBP(p.membershipYear1)} a month`,
    detail: `In your first year, then ${formatGBP(p.membershipYear2)} a month from your second year`,
  },
  {
    service: "Medication",
    price: `${formatGBP(p.medicationFrom)} to ${formatGBP(p.medicationTo)} a month`,
    detail: `Depending on treatment, brand and dose, including postage of about ${formatGBP(p.postage)}; a starter pack is about ${formatGBP(p.starterPack)}. The worked example below uses ${formatGBP(EXAMPLE_MEDICATION)}`,
  },
];

export const pricingText = {
  lead: "What treatment would cost, set out in full before you commit to anything: consultation, blood tests, membership and medication.",
  indicative: "Prices will be confirmed at launch, and nothing can be bought or booked yet.",
  calculatorIntro: `Choose a treatment and any add-ons your clinician might suggest. The estimate covers medication and your ${formatGBP(MEMBERSHIP_MONTHLY)} monthly membership; beside it are your first and second years with the consultation and tests added.`,
  calculatorNote:
    "An estimate only. Your clinician recommends treatment after your consultation and blood tests.",
  totalsCover: "Medication and membership only",
  withCareTitle: "With consultation and tests",
  withCareNote: `Your treatment in our worked example: consultation, pre-consultation blood tests, a starter pack, membership (${formatGBP(statedPrices.membershipYear2)} a month from year 2), monitoring tests and review calls.`,
  rangesNote:
    "Each price here is one usual dose of one brand; the monthly ranges on our treatment options page also cover other brands and higher doses, so they run higher.",
  breakdownIntro:
    "A worked example for a man on injectable treatment, using our stated prices. Your own costs depend on your treatment and how often you need tests.",
  otherCostsIntro: "Some men need extra tests or calls. These are charged only when you need them.",
} as const;
