import { describe, expect, it } from "vitest";

import { estimate, sumLines, yearsWithCare } from "./cost.ts";
import { type AddOnKey, type TreatmentKey, addOns, costYears } from "../../content/pricing.ts";

// The price tables of specification section 9, copied here by hand so the test
// checks the content module and the formula against the specification itself.
const specTreatments: [TreatmentKey, number, number][] = [
  ["testosterone-cypionate", 15, 180],
  ["testosterone-enanthate", 18, 216],
  ["sustanon", 25, 300],
  ["nebido", 45, 540],
  ["scrotal-cream", 35, 420],
  ["testosterone-gel", 40, 480],
];
const specAddOns: [AddOnKey, number][] = [
  ["hcg-low", 25],
  ["hcg-high", 45],
  ["aromatase-inhibitor", 20],
  ["tadalafil", 15],
];

/** Every subset of the four add-ons: 16 of them, from a 4-bit mask. */
const subsets: [AddOnKey, number][][] = Array.from({ length: 16 }, (_, mask) =>
  specAddOns.filter((_, bit) => (mask >> bit) & 1),
);

describe("estimate", () => {
  it("covers all 6 × 16 combinations with the specification's formula", () => {
    let checked = 0;
    for (const [key, monthly, yearly] of specTreatments) {
      for (const subset of subsets) {
        const extras = subset.reduce((sum, [, price]) => sum + price, 0);
        const result = estimate(
          key,
          subset.map(([k]) => k),
        );
        expect(result.monthlyTotal, `${key} + ${subset.map(([k]) => k).join(",")}`).toBe(
          monthly + extras + 32,
        );
        expect(result.yearlyTotal, `${key} + ${subset.map(([k]) => k).join(",")}`).toBe(
          yearly + extras * 12 + 384,
        );
        checked += 1;
      }
    }
    expect(checked).toBe(96);
  });

  it("lists the chosen add-ons once each, in price-list order", () => {
    const result = estimate("sustanon", ["tadalafil", "hcg-low", "tadalafil"]);
    expect(result.addOns.map((a) => a.key)).toEqual(["hcg-low", "tadalafil"]);
    expect(result.addOnsMonthly).toBe(40);
  });

  it("rejects unknown keys", () => {
    expect(() => estimate("aspirin" as TreatmentKey, [])).toThrow(RangeError);
    expect(() => estimate("nebido", ["vitamin-d" as AddOnKey])).toThrow(RangeError);
  });

  it("offers exactly the add-ons of the specification", () => {
    expect(addOns.map((a) => [a.key, a.monthlyPrice])).toEqual(specAddOns);
  });
});

describe("cost breakdown", () => {
  it("year 1 parts add up to exactly £1,485 and year 2 parts to £1,140", () => {
    const [year1, year2] = costYears;
    expect(year1?.statedTotal).toBe(1485);
    expect(year2?.statedTotal).toBe(1140);
    // Summed by hand from quantity × unit price, not through sumLines.
    const byHand = (y: (typeof costYears)[number] | undefined) =>
      (y?.lines ?? []).reduce((pence, l) => pence + Math.round(l.unitPrice * 100) * l.quantity, 0);
    expect(byHand(year1)).toBe(148_500);
    expect(byHand(year2)).toBe(114_000);
    expect(sumLines(year1?.lines ?? [])).toBe(1485);
    expect(sumLines(year2?.lines ?? [])).toBe(1140);
  });

  it("uses the stated membership of £32 then £28 a month", () => {
    const membership = (id: string) =>
      costYears.find((y) => y.id === id)?.lines.find((l) => l.service === "Membership");
    expect(membership("year-1")).toMatchObject({ quantity: 12, unitPrice: 32 });
    expect(membership("year-2")).toMatchObject({ quantity: 12, unitPrice: 28 });
  });

  it("keeps medication including postage within the stated £10 to £60 a month", () => {
    for (const year of costYears) {
      for (const line of year.lines.filter((l) => l.service.startsWith("Medication"))) {
        expect(line.unitPrice).toBeGreaterThanOrEqual(10);
        expect(line.unitPrice).toBeLessThanOrEqual(60);
      }
    }
  });
});

describe("years with consultation and tests", () => {
  it("gives the stated £1,485 and £1,140 with the example's £45 a month", () => {
    expect(yearsWithCare(45).map((y) => y.total)).toEqual([1485, 1140]);
  });

  it("puts the chosen treatment and add-ons in place of the example's medication", () => {
    // Year 1: £1,485 less ten months at £45, plus ten at £15. Year 2: twelve months.
    const cypionate = estimate("testosterone-cypionate", []);
    expect(yearsWithCare(cypionate.treatmentMonthly + cypionate.addOnsMonthly)).toMatchObject([
      { id: "year-1", total: 1485 - 10 * 45 + 10 * 15 },
      { id: "year-2", total: 1140 - 12 * 45 + 12 * 15 },
    ]);
    const withAddOns = estimate("nebido", ["hcg-high", "tadalafil"]);
    expect(yearsWithCare(withAddOns.treatmentMonthly + withAddOns.addOnsMonthly)[0]?.total).toBe(
      1485 - 10 * 45 + 10 * (45 + 45 + 15),
    );
  });
});
