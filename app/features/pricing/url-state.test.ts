import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { type Selection, parseSelection, selectionToSearch } from "./url-state.ts";
import {
  type AddOnKey,
  type TreatmentKey,
  addOns,
  treatmentOptions,
} from "../../content/pricing.ts";

const parse = (query: string) => parseSelection(new URLSearchParams(query));
const defaultSelection: Selection = { treatment: "testosterone-cypionate", addOns: [] };

describe("parseSelection", () => {
  it("starts from testosterone cypionate and no add-ons", () => {
    expect(parse("")).toEqual({ treatment: "testosterone-cypionate", addOns: [] });
  });

  it("reads a shared link", () => {
    expect(parse("?treatment=nebido&addons=hcg-high,tadalafil")).toEqual({
      treatment: "nebido",
      addOns: ["hcg-high", "tadalafil"],
    });
  });

  it("reads what a plain HTML form submits (repeated add-ons)", () => {
    expect(parse("treatment=sustanon&addons=tadalafil&addons=hcg-low")).toEqual({
      treatment: "sustanon",
      addOns: ["hcg-low", "tadalafil"],
    });
  });

  it("falls back to defaults for unknown values and ignores unknown add-ons", () => {
    expect(parse("treatment=unicorn&addons=nope,,tadalafil,TADALAFIL")).toEqual({
      treatment: "testosterone-cypionate",
      addOns: ["tadalafil"],
    });
    expect(parse("treatment=&addons=")).toEqual(defaultSelection);
    expect(parse("treatment=nebido&treatment=sustanon").treatment).toBe("nebido");
  });
});

describe("selectionToSearch", () => {
  it("leaves the URL clean for the defaults", () => {
    expect(selectionToSearch(defaultSelection)).toBe("");
  });

  it("writes a readable query with commas", () => {
    expect(selectionToSearch({ treatment: "nebido", addOns: ["tadalafil", "hcg-high"] })).toBe(
      "?treatment=nebido&addons=hcg-high,tadalafil",
    );
    expect(selectionToSearch({ treatment: "testosterone-cypionate", addOns: ["hcg-low"] })).toBe(
      "?treatment=testosterone-cypionate&addons=hcg-low",
    );
  });

  it("round-trips every selection", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...treatmentOptions.map((t) => t.key)),
        fc.subarray(addOns.map((a) => a.key)),
        (treatment: TreatmentKey, chosen: AddOnKey[]) => {
          const back = parse(selectionToSearch({ treatment, addOns: chosen }));
          expect(back).toEqual({ treatment, addOns: chosen });
        },
      ),
    );
  });
});
