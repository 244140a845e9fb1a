import { describe, expect, it } from "vitest";

import {
  acceptAll,
  essentialOnly,
  parseStoredConsent,
  serializeConsent,
} from "./consent-record.ts";

describe("stored consent", () => {
  it("is absent when nothing is stored", () => {
    expect(parseStoredConsent(null)).toEqual({ kind: "none" });
  });

  it("round-trips every combination of the optional categories", () => {
    for (let mask = 0; mask < 8; mask++) {
      const consent = {
        essential: true,
        analytics: Boolean(mask & 1),
        functional: Boolean(mask & 2),
        marketing: Boolean(mask & 4),
      };
      expect(parseStoredConsent(serializeConsent(consent))).toEqual({ kind: "stored", consent });
    }
  });

  it("expires one year after the choice, so the banner asks again", () => {
    const decided = new Date("2026-01-01T00:00:00.000Z");
    const raw = serializeConsent(acceptAll, decided);
    expect(parseStoredConsent(raw, new Date("2026-12-31T00:00:00.000Z")).kind).toBe("stored");
    expect(parseStoredConsent(raw, new Date("2027-01-02T00:00:00.000Z")).kind).toBe("expired");
  });

  it("always stores essential as true", () => {
    const parsed = parseStoredConsent(serializeConsent({ ...essentialOnly, essential: false }));
    expect(parsed).toEqual({ kind: "stored", consent: essentialOnly });
  });

  it.each([
    ["not JSON", "{oops"],
    ["the wrong shape", JSON.stringify({ analytics: "yes" })],
    ["an unknown version", serializeConsent(acceptAll).replace('"version":1', '"version":9')],
    ["a bare value", "true"],
    ["an array", "[]"],
    [
      "essential refused",
      serializeConsent(acceptAll).replace('"essential":true', '"essential":false'),
    ],
    [
      "a category that is not a boolean",
      serializeConsent(acceptAll).replace('"marketing":true', '"marketing":"true"'),
    ],
    [
      "a date that is not a date",
      JSON.stringify({ ...JSON.parse(serializeConsent(acceptAll)), decidedAt: "yesterday" }),
    ],
    [
      "an impossible date",
      JSON.stringify({
        ...JSON.parse(serializeConsent(acceptAll)),
        decidedAt: "2025-13-45T99:00:00Z",
      }),
    ],
  ])("is invalid when the value is %s", (_label, raw) => {
    expect(parseStoredConsent(raw).kind).toBe("invalid");
  });
});
