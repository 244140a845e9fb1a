import {
  type AddOnKey,
  DEFAULT_TREATMENT,
  type TreatmentKey,
  addOns,
  treatmentOptions,
} from "../../content/pricing.ts";

export type Selection = { treatment: TreatmentKey; addOns: AddOnKey[] };

/**
 * Reads the calculator's selection from a query string. Accepts the shared form
 * (`?treatment=nebido&addons=hcg-high,tadalafil`) and the repeated form a plain
 * HTML form submits (`addons=hcg-high&addons=tadalafil`). Anything unknown is
 * ignored, so a broken or stale link falls back to the defaults.
 */
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

/**
 * The query string for a selection, with its leading "?": empty for the defaults, so the
 * plain /pricing URL stays clean. Keys are URL-safe, so commas stay readable (not %2C).
 */
export function selectionToSearch(selection: Selection): string {
  const keys = addOns.map((a) => a.key).filter((key) => selection.addOns.includes(key));
  if (selection.treatment === DEFAULT_TREATMENT && keys.length === 0) return "";
  const parts = [`treatment=${selection.treatment}`];
  if (keys.length > 0) parts.push(`addons=${keys.join(",")}`);
  return `?${parts.join("&")}`;
}
