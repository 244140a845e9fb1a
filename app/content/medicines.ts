// The one list of the medicines the site names or prices: the staff console warns when an
// announcement names one (decisions 136 and 174).
import { addOns, treatmentOptions as pricedTreatments } from "./pricing.ts";
import { preparationMedicines } from "./treatments.ts";

/** A priced item's medicine is its name before any dose ("hCG, lower dose"). */
const medicineOf = ({ name }: { name: string }) => name.split(",")[0]!.trim();

/** Derived from /pricing's items, so a medicine priced there cannot be left out (tested). */
export const prescriptionOnlyMedicines: readonly string[] = [
  ...new Set([...preparationMedicines, ...[...pricedTreatments, ...addOns].map(medicineOf)]),
];
