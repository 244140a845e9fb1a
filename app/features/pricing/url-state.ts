import {
  type AddOnKey,
  DEFAULT_TREATMENT,
  type TreatmentKey,
  addOns,
  treatmentOptions,
} from "../../content/pricing.ts";

export type Selection = { treatment: TreatmentKey; addOns: AddOnKey[] };

/** `addons=a,b` (shared) or `addons=a&addons=b` (the no-JS form); anything unknown is ignored. */
export function parseSelection(params: URLSearchParams): Selection {
  const requestedTreatment = params.get("treatment");
  const treatment =
    treatmentOptions.find((t) => t.key === requestedTreatment)?.key ?? DEFAULT_TREATMENT;
  const requested = new Set(
    params
      .getAll("addons")
      .flatMap((value) => value.split(","))
      .map((value) => value.trim()),
  );
  return { treatment, addOns: addOns.map((a) => a.key).filter((key) => requested.has(key)) };
}

/** Empty for the defaults; keys are URL-safe, so commas stay readable (not %2C). */
export function selectionToSearch(selection: Selection): string {
  const keys = addOns.map((a) => a.key).filter((key) => selection.addOns.includes(key));
  if (selection.treatment === DEFAULT_TREATMENT && keys.length === 0) return "";
  const parts = [`treatment=${selection.treatment}`];
  if (keys.length > 0) parts.push(`addons=${keys.join(",")}`);
  return `?${parts.join("&")}`;
}
