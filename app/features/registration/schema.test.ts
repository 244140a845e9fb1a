import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { registrationLimits } from "./fields.ts";
import { usableClientTimestamp, usableIdempotencyKey, validateRegistration } from "./schema.ts";

const valid = { name: "Sam Carter", email: "sam@example.co.uk", phone: "", message: "" };

describe("validateRegistration", () => {
  it("trims values and turns empty optional fields into null", () => {
    expect(
      validateRegistration({ ...valid, name: "  Sam Carter ", email: " sam@example.co.uk\n" }),
    ).toEqual({
      success: true,
      data: { name: "Sam Carter", email: "sam@example.co.uk", phone: null, message: null },
    });
  });

  it("asks for the required fields", () => {
    const result = validateRegistration({ ...valid, name: "   ", email: "" });
    expect(result).toEqual({
      success: false,
      fieldErrors: { name: "Please enter your name.", email: "Please enter your email address." },
    });
  });

  it("rejects an address that is not an email address", () => {
    const result = validateRegistration({ ...valid, email: "sam at example" });
    expect(result.success ? null : result.fieldErrors.email).toMatch(/valid email address/);
  });

  it.each([
    ["name", "x".repeat(registrationLimits.name + 1), /100 characters/],
    ["email", `${"a".repeat(250)}@x.io`, /254 characters/],
    ["phone", "+44 (0)20 7946 0958 12", /20 characters/],
    ["message", "m".repeat(registrationLimits.message + 1), /2,000 characters/],
  ] as const)("enforces the documented limit on %s", (field, value, message) => {
    const result = validateRegistration({ ...valid, [field]: value });
    expect(result.success ? null : result.fieldErrors[field]).toMatch(message);
  });

  it.each([
    ["a local part of 65 characters", `${"a".repeat(65)}@example.com`],
    ["the 242-character local part a mail server refused", `${"a".repeat(242)}@example.com`],
    ["a domain label of 64 characters", `sam@${"b".repeat(64)}.com`],
  ])("refuses %s, as SMTP would, with a plain message", (_what, email) => {
    const result = validateRegistration({ ...valid, email });
    expect(result.success ? null : result.fieldErrors.email).toBe(
      "Please check your email address: email allows at most 64 characters before the @, and at most 63 between any two dots after it.",
    );
  });

  it("accepts values exactly at the limits", () => {
    const result = validateRegistration({
      name: "n".repeat(registrationLimits.name),
      email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.uk`,
      phone: "+44 (0)20 7946 0958",
      message: "m".repeat(registrationLimits.message),
    });
    expect(result).toMatchObject({
      success: true,
      data: { email: expect.stringMatching(/^.{254}$/) },
    });
  });

  it.each(["07700 900123", "+44 7700 900123", "+1 (555) 010-2030", "020.7946.0958"])(
    "accepts the phone number %s",
    (phone) => {
      expect(validateRegistration({ ...valid, phone }).success).toBe(true);
    },
  );

  it.each(["call me", "12345", "0770 0900 123 ext 4", "07700+900123", "+44 7700 900123 456 789"])(
    "rejects the phone number %s",
    (phone) => {
      expect(validateRegistration({ ...valid, phone }).success).toBe(false);
    },
  );

  it("never accepts a value over its limit, whatever it contains", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 101, maxLength: 300 }), (name) => {
        const result = validateRegistration({ ...valid, name });
        return name.trim().length <= 100 || !result.success;
      }),
    );
  });
});

describe("submission metadata", () => {
  it("keeps a UUID key and ignores anything else", () => {
    expect(usableIdempotencyKey("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe(
      "0f8fad5b-d9cb-469f-a165-70867728950e",
    );
    expect(usableIdempotencyKey("")).toBeNull();
    expect(usableIdempotencyKey("'; drop table registrations; --")).toBeNull();
  });

  it("keeps an ISO timestamp exactly as sent and drops anything else", () => {
    expect(usableClientTimestamp("2025-01-31T09:15:00.123Z")).toBe("2025-01-31T09:15:00.123Z");
    expect(usableClientTimestamp("2025-01-31T09:15:00+01:00")).toBe("2025-01-31T09:15:00+01:00");
    expect(usableClientTimestamp("yesterday")).toBeNull();
    expect(usableClientTimestamp("")).toBeNull();
  });
});

describe("control characters", () => {
  it("never lets NUL or other invisible controls through, but keeps a message's line breaks", () => {
    const result = validateRegistration({
      name: "Sam\u0000 Carter\u001B",
      email: "sam@example.co.uk\u0000",
      phone: "\u00070207 946 0000",
      message: "Line one\r\nLine\ttwo\u0000\u007F",
    });
    expect(result).toEqual({
      success: true,
      data: {
        name: "Sam Carter",
        email: "sam@example.co.uk",
        phone: "0207 946 0000",
        message: "Line one\r\nLine\ttwo",
      },
    });
  });

  it("removes C1 controls and bidirectional overrides, isolates and marks from every field", () => {
    const c1 = "\u0080\u0085\u009B\u009D\u009F";
    const bidi = "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C";
    const result = validateRegistration({
      name: `Eve${c1}2J ${bidi}Mallory`,
      email: `eve${bidi}@example.com${c1}`,
      phone: `${c1}+44 7700 900${bidi}123`,
      message: `Hello\u009B2J\u202Etxt.exe\r\nسلام\u200F!\u2028`,
    });
    expect(result).toEqual({
      success: true,
      data: {
        name: "Eve2J Mallory",
        email: "eve@example.com",
        phone: "+44 7700 900123",
        message: "Hello2Jtxt.exe\r\nسلام!",
      },
    });
  });

  it("treats a name of control characters only as missing", () => {
    const result = validateRegistration({ ...valid, name: "\u0000\u0001\u009B\u202E" });
    expect(result.success ? null : result.fieldErrors.name).toBe("Please enter your name.");
  });
});
