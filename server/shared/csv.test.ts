import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { csvField, neutraliseFormula, registrationsCsv, toCsv } from "./csv.ts";
import { parseCsv } from "../../tests/support/csv.ts";

describe("neutraliseFormula", () => {
  it.each(["=SUM(A1:A9)", "+44 7700 900123", "-1+2", "@cmd", "\tx", "\rx"])(
    "prefixes %j with an apostrophe",
    (value) => {
      expect(neutraliseFormula(value)).toBe(`'${value}`);
    },
  );

  it("leaves ordinary text alone", () => {
    expect(neutraliseFormula("Sam Patel")).toBe("Sam Patel");
    expect(neutraliseFormula("a=b")).toBe("a=b");
    expect(neutraliseFormula("")).toBe("");
  });
});

describe("csvField", () => {
  it("quotes fields with a comma, quote, CR or LF and doubles the quotes", () => {
    expect(csvField("Smith, John")).toBe('"Smith, John"');
    expect(csvField('He said "hi"')).toBe('"He said ""hi"""');
    expect(csvField("line one\nline two")).toBe('"line one\nline two"');
    expect(csvField("a\rb")).toBe('"a\rb"');
    expect(csvField("plain")).toBe("plain");
  });

  it("neutralises before quoting", () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });
});

describe("toCsv", () => {
  it("round-trips any text, with formula starts neutralised", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 5 }),
        (rows) => {
          const parsed = parseCsv(toCsv(["x", "y"], rows));
          expect(parsed).toEqual([["x", "y"], ...rows.map((r) => r.map(neutraliseFormula))]);
        },
      ),
    );
  });
});

describe("registrationsCsv", () => {
  it("writes one row per registration under a header", () => {
    const csv = registrationsCsv([
      {
        id: "r1",
        receivedAt: "2026-01-02T03:04:05.000Z",
        clientTimestamp: "2026-01-02T03:04:04.500Z",
        name: "Alex Brown",
        email: "alex@example.com",
        phone: "+44 7700 900123",
        message: null,
        idempotencyKey: "k1",
        consent: null,
        confirmedAt: null,
        unsubscribedAt: null,
      },
    ]);
    expect(csv).toBe(
      "id,received_at,client_timestamp,name,email,phone,message,consent_version,wants_updates,confirmed_at,unsubscribed_at\r\n" +
        "r1,2026-01-02T03:04:05.000Z,2026-01-02T03:04:04.500Z,Alex Brown,alex@example.com,'+44 7700 900123,,,,,\r\n",
    );
  });
});
