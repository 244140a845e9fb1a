import {
  type AddOnKey,
  type CostLine,
  MEMBERSHIP_MONTHLY,
  MEMBERSHIP_YEARLY,
  type TreatmentKey,
  addOns,
  costYears,
  treatmentOptions,
} from "../../content/pricing.ts";

/** Specification section 9. Add-ons keep the price list's order. */
export function estimate(treatmentKey: TreatmentKey, addOnKeys: Iterable<AddOnKey>) {
  const treatment = treatmentOptions.find((t) => t.key === treatmentKey);
  if (!treatment) throw new RangeError(`Unknown treatment: ${treatmentKey}`);
  const chosen = new Set(addOnKeys);
  for (const key of chosen) {
    if (!addOns.some((a) => a.key === key)) throw new RangeError(`Unknown add-on: ${key}`);
  }
  const selected = addOns.filter((a) => chosen.has(a.key));
  const addOnsMonthly = selected.reduce((sum, a) => sum + a.monthlyPrice, 0);
  return {
    treatment,
    addOns: selected,
    treatmentMonthly: treatment.monthlyPrice,
    addOnsMonthly,
    monthlyTotal: treatment.monthlyPrice + addOnsMonthly + MEMBERSHIP_MONTHLY,
    yearlyTotal: treatment.yearlyTotal + addOnsMonthly * 12 + MEMBERSHIP_YEARLY,
  };
}

/** A cost line's amount, worked in pence so half-pound prices add up exactly. */
export function lineAmount(line: CostLine): number {
  return (Math.round(line.unitPrice * 100) * line.quantity) / 100;
}

export function sumLines(lines: readonly CostLine[]): number {
  return lines.reduce((pence, line) => pence + Math.round(lineAmount(line) * 100), 0) / 100;
}

/** The worked example's years with the visitor's medication in place of its own. */
export function yearsWithCare(medicationMonthly: number) {
  return costYears.map((year) => ({
    id: year.id,
    title: year.title,
    total: sumLines(
      year.lines.map((line) =>
        line.medication ? { ...line, unitPrice: medicationMonthly } : line,
      ),
    ),
  }));
}
