// Prices, the provider comparison and the cost breakdown for /pricing: every figure is from
// the specification (section 9) unless a comment says otherwise.
import { clinic } from "./clinic.ts";
import { formatGBP } from "./money.ts";

/** A name shown is its key in words, unless given. */
const words = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll("-", " ");

/** `form` (how it is taken) is shown under the name. */
const treatment = <K extends string>(key: K, monthlyPrice: number, form: string) => ({
  key,
  name: words(key),
  form,
  monthlyPrice,
  yearlyTotal: monthlyPrice * 12,
});

export const treatmentOptions = [
  treatment("testosterone-cypionate", 15, "Injection, usually two to three times a week"),
  treatment("testosterone-enanthate", 18, "Injection, usually two to three times a week"),
  treatment("sustanon", 25, "Injection of blended testosterone esters"),
  treatment("nebido", 45, "Long-acting injection given every few months"),
  treatment("scrotal-cream", 35, "Testosterone cream applied daily"),
  treatment("testosterone-gel", 40, "Gel applied to the skin daily"),
];

export type TreatmentKey = (typeof treatmentOptions)[number]["key"];
export const DEFAULT_TREATMENT: TreatmentKey = "testosterone-cypionate";

const addOn = <K extends string>(key: K, price: number, purpose: string, name = words(key)) => ({
  key,
  name,
  purpose,
  monthlyPrice: price,
});

export const addOns = [
  addOn("hcg-low", 25, "Helps keep your own hormone production going", "hCG, lower dose"),
  addOn("hcg-high", 45, "For men who also want to protect fertility", "hCG, higher dose"),
  addOn("aromatase-inhibitor", 20, "Only if blood tests show high oestradiol"),
  addOn("tadalafil", 15, "Daily support for erections"),
];

export type AddOnKey = (typeof addOns)[number]["key"];

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
  description: string;
  /** The calculator puts the visitor's own treatment in this line's place. */
  medication?: true;
};

const item =
  (service: string, unitPrice: number) =>
  (quantity: number, description: string): CostLine => ({
    service,
    quantity,
    unitPrice,
    description,
  });
const consultation = item("Initial consultation", p.consultation);
const basicTest = item("Pre-consultation blood test: testosterone", p.bloodTestBasic);
const fullPanel = item("Pre-consultation blood test: full hormone panel", p.bloodTestFull);
const bloodDraw = item("Blood draw", p.bloodDraw);
const starterPack = item("Starter pack", p.starterPack);
const monitoring = item("Monitoring blood tests", p.monitoringTestFrom);
const reviewCalls = item("Review calls", p.reviewCallFrom);
const extraTest = item("Extra blood test", p.extraBloodTestFrom);
const membership = (price: number, when: string) =>
  item("Membership", price)(12, `${formatGBP(price)} a month ${when}`);
const medication = (quantity: number): CostLine => ({
  ...item("Medication, including postage", EXAMPLE_MEDICATION)(
    quantity,
    `A mid-range injectable at about ${formatGBP(EXAMPLE_MEDICATION - p.postage)} plus ${formatGBP(p.postage)} postage, within the ${formatGBP(p.medicationFrom)} to ${formatGBP(p.medicationTo)} a month that medication costs`,
  ),
  medication: true,
});

// The specification states the totals (a unit test checks the lines add up to them exactly)
// and the unit prices; the quantities are our worked example (decision 024).
export const costYears = [
  {
    id: "year-1",
    title: "Year 1",
    summary:
      "Tests, your consultation, a starter pack, ten months of medication and close monitoring while your dose settles.",
    statedTotal: 1485,
    lines: [
      consultation(1, `A ${p.consultationMinutes}-minute video call with a clinician`),
      basicTest(1, "The first of the two morning readings you need"),
      fullPanel(1, "Total and free testosterone, LH, FSH and SHBG"),
      bloodDraw(1, "A nurse takes a venous sample for the full panel"),
      membership(p.membershipYear1, "in your first year"),
      starterPack(1, "Your first month's supplies and instructions"),
      medication(10),
      monitoring(4, "At 6 weeks, then 3, 6 and 12 months"),
      reviewCalls(2, "To go through results and adjust your dose"),
      extraTest(1, "A repeat check, for example after a dose change"),
    ],
  },
  {
    id: "year-2",
    title: "Year 2",
    summary:
      "A lower membership fee, a full year of medication and twice-yearly monitoring once you are settled.",
    statedTotal: 1140,
    lines: [
      membership(p.membershipYear2, "from your second year"),
      medication(12),
      monitoring(2, "Twice a year once you are stable"),
      reviewCalls(3, "After each monitoring test, and a yearly review"),
      extraTest(1, "If your clinician wants a further check"),
    ],
  },
];

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

// Our column and the NHS speed and threshold are the specification's; the other clinics are
// deliberately general. REPLACE BEFORE LAUNCH: check the other clinics' and NHS cost wording
// against published prices: comparative claims must be verifiable (CAP Code 3.33-3.44).
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
