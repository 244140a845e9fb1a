import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  classifySubmitError,
  HttpFailure,
  isMissingRequired,
  newIdempotencyKey,
  readSubmission,
  registrationLimits,
  retryDelay,
  submitWithRetry,
  usableAttribution,
  usableClientTimestamp,
  usableIdempotencyKey,
  validateRegistration,
} from "./form.ts";

const valid = { name: "Sam Carter", email: "sam@example.co.uk", phone: "", message: "" };

describe("validateRegistration", () => {
  const c1 = "\u0080\u0085\u009B\u009D\u009F";
  const bidi = "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C";
  it.each<[string, typeof valid, Record<keyof typeof valid, string | null>]>([
    [
      "trims values and turns empty optional fields into null",
      { ...valid, name: "  Sam Carter ", email: " sam@example.co.uk\n" },
      { name: "Sam Carter", email: "sam@example.co.uk", phone: null, message: null },
    ],
    [
      "never lets NUL or other invisible controls through, but keeps a message's line breaks",
      {
        name: "Sam\u0000 Carter\u001B",
        email: "sam@example.co.uk\u0000",
        phone: "\u00070207 946 0000",
        message: "Line one\r\nLine\ttwo\u0000\u007F",
      },
      {
        name: "Sam Carter",
        email: "sam@example.co.uk",
        phone: "0207 946 0000",
        message: "Line one\r\nLine\ttwo",
      },
    ],
    [
      "removes C1 controls and bidirectional overrides, isolates and marks from every field",
      {
        name: `Eve${c1}2J ${bidi}Mallory`,
        email: `eve${bidi}@example.com${c1}`,
        phone: `${c1}+44 7700 900${bidi}123`,
        message: `Hello\u009B2J\u202Etxt.exe\r\nسلام\u200F!\u2028`,
      },
      {
        name: "Eve2J Mallory",
        email: "eve@example.com",
        phone: "+44 7700 900123",
        message: "Hello2Jtxt.exe\r\nسلام!",
      },
    ],
  ])("%s", (_what, input, data) => {
    expect(validateRegistration(input)).toEqual({ success: true, data });
  });

  it("asks for the required fields", () => {
    const result = validateRegistration({ ...valid, name: "   ", email: "" });
    expect(result).toEqual({
      success: false,
      fieldErrors: { name: "Please enter your name.", email: "Please enter your email address." },
    });
  });

  // Limits are the documented ones; the SMTP ones (64 before the @, 63 between dots) have
  // a plain message of their own, exactly this one.
  const smtp =
    "Please check your email address: email allows at most 64 characters before the @, and at most 63 between any two dots after it.";
  it.each<["name" | "email" | "phone" | "message", string, string, RegExp | string]>([
    ["email", "not an email address", "sam at example", /valid email address/],
    ["name", "over its limit", "x".repeat(registrationLimits.name + 1), /100 characters/],
    ["email", "over its limit", `${"a".repeat(250)}@x.io`, /254 characters/],
    ["phone", "over its limit", "+44 (0)20 7946 0958 12", /20 characters/],
    ["message", "over its limit", "m".repeat(registrationLimits.message + 1), /2,000 characters/],
    ["email", "a local part of 65 characters", `${"a".repeat(65)}@example.com`, smtp],
    // A mail server refused this one.
    ["email", "the 242-character local part refused", `${"a".repeat(242)}@example.com`, smtp],
    ["email", "a domain label of 64 characters", `sam@${"b".repeat(64)}.com`, smtp],
    // Controls are removed first: a name of nothing else is missing.
    ["name", "only control characters", "\u0000\u0001\u009B\u202E", "Please enter your name."],
  ])("refuses the %s: %s", (field, _what, value, error) => {
    const result = validateRegistration({ ...valid, [field]: value });
    const message = result.success ? null : result.fieldErrors[field];
    expect(message).toEqual(typeof error === "string" ? error : expect.stringMatching(error));
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

  const phones = {
    accepts: ["07700 900123", "+44 7700 900123", "+1 (555) 010-2030", "020.7946.0958"],
    rejects: ["call me", "12345", "0770 0900 123 ext 4", "07700+900123", "+44 7700 900123 456 789"],
  };
  it.each(Object.entries(phones).flatMap(([verdict, all]) => all.map((phone) => [verdict, phone])))(
    "%s the phone number %s",
    (verdict, phone) => {
      expect(validateRegistration({ ...valid, phone }).success).toBe(verdict === "accepts");
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
    const key = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    expect(usableIdempotencyKey(key)).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
    for (const other of ["", "'; drop table registrations; --"])
      expect(usableIdempotencyKey(other), other).toBeNull();
  });

  it("keeps an ISO timestamp exactly as sent and drops anything else", () => {
    expect(usableClientTimestamp("2025-01-31T09:15:00.123Z")).toBe("2025-01-31T09:15:00.123Z");
    expect(usableClientTimestamp("2025-01-31T09:15:00+01:00")).toBe("2025-01-31T09:15:00+01:00");
    expect(usableClientTimestamp("yesterday")).toBeNull();
    expect(usableClientTimestamp("")).toBeNull();
  });
});

describe("isMissingRequired", () => {
  it("is true when the name or the email is blank", () => {
    expect(isMissingRequired({ name: " ", email: "a@b.co" })).toBe(true);
    expect(isMissingRequired({ name: "Sam", email: "" })).toBe(true);
    expect(isMissingRequired({ name: "Sam", email: "not checked here" })).toBe(false);
  });
});

describe("readSubmission", () => {
  it("reads every field and treats a missing or file field as empty", () => {
    const form = new FormData();
    form.set("name", "Sam");
    form.set("website", new Blob(["x"]));
    const empty = `email phone message honeypot idempotencyKey clientTimestamp updates
      consentVersion analytics utmSource utmMedium utmCampaign referrer`.split(/\s+/);
    expect(readSubmission(form)).toEqual({
      name: "Sam",
      ...Object.fromEntries(empty.map((field) => [field, ""])),
    });
  });
});

describe("usableAttribution", () => {
  const submission = (fields: Record<string, string>) =>
    readSubmission(new URLSearchParams({ analytics: "yes", ...fields }));

  it("is null unless the visitor allowed analytics", () => {
    expect(usableAttribution(readSubmission(new URLSearchParams({ utm_source: "x" })))).toBeNull();
    expect(usableAttribution(submission({ analytics: "no", utm_source: "x" }))).toBeNull();
  });

  it.each([
    [
      "keeps the visit's source, trimmed, with empty fields as null",
      { utm_source: " newsletter ", utm_medium: "email", referrer: "WWW.Google.co.uk" },
      { source: "newsletter", medium: "email", campaign: null, referrer: "www.google.co.uk" },
    ],
    [
      "drops a value that is too long or not a host name, never the registration",
      {
        utm_source: "x".repeat(registrationLimits.utm + 1),
        utm_campaign: "spring\u202Esale",
        referrer: "https://evil.example/path",
      },
      { source: null, medium: null, campaign: "springsale", referrer: null },
    ],
  ])("%s", (_what, fields, attribution) => {
    expect(usableAttribution(submission(fields))).toEqual(attribution);
  });
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newIdempotencyKey", () => {
  it("makes a different UUID every time", () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(uuid);
  });
});

const policy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe("backoff", () => {
  it("doubles from the base delay and stops growing at the cap", () => {
    const many = { ...policy, retries: 20 };
    expect([0, 1, 2, 3].map((i) => retryDelay(i, many, null))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(10, many, null)).toBe(30_000);
  });

  it("waits at least as long as the server asks, and gives up when it asks for more than the cap", () => {
    expect(retryDelay(0, policy, 5000)).toBe(5000);
    expect(retryDelay(2, policy, 1000)).toBe(4000);
    expect(retryDelay(0, policy, 3_600_000)).toBeNull();
  });

  it("allows exactly `retries` retries", () => {
    expect(retryDelay(2, policy, null)).toBe(4000);
    expect(retryDelay(3, policy, null)).toBeNull();
  });
});

describe("classifySubmitError", () => {
  it.each<[string, unknown, ReturnType<typeof classifySubmitError>]>([
    ["a network failure", new TypeError("Failed to fetch"), { retry: true, retryAfterMs: null }],
    ["a 502", new HttpFailure(502, null), { retry: true, retryAfterMs: null }],
    ["a 429 with Retry-After", new HttpFailure(429, 12_000), { retry: true, retryAfterMs: 12_000 }],
    ["a 503 with Retry-After", new HttpFailure(503, 5000), { retry: true, retryAfterMs: 5000 }],
    // Answers that would fail the same way, and an abort.
    ["a 403", new HttpFailure(403, null), { retry: false }],
    ["a 413", new HttpFailure(413, null), { retry: false }],
    ["an abort", new DOMException("gone", "AbortError"), { retry: false }],
  ])("%s is classified", (_, error, verdict) => {
    expect(classifySubmitError(error)).toEqual(verdict);
  });
});

describe("submitWithRetry", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("returns the first success without waiting", async () => {
    const attempt = vi.fn().mockResolvedValue("stored");
    await expect(submitWithRetry(attempt, policy)).resolves.toBe("stored");
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("retries transient failures with exponential backoff, then succeeds", async () => {
    const attempt = vi
      .fn<(n: number) => Promise<string>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValue("stored");
    const result = submitWithRetry(attempt, policy);

    await vi.advanceTimersByTimeAsync(999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("stored");
    expect(attempt.mock.calls.map(([n]) => n)).toEqual([1, 2, 3]);
  });

  it("makes at most four attempts (one plus three retries) and throws the last error", async () => {
    const errors = [1, 2, 3, 4].map((n) => new TypeError(`attempt ${n}`));
    const attempt = vi.fn<(n: number) => Promise<string>>((n) => Promise.reject(errors[n - 1]));
    const result = submitWithRetry(attempt, policy);
    const settled = expect(result).rejects.toBe(errors[3]);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    await settled;
    expect(attempt).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempt).toHaveBeenCalledTimes(4);
  });

  it("honours a longer Retry-After", async () => {
    const attempt = vi
      .fn<(n: number) => Promise<string>>()
      .mockRejectedValueOnce(new HttpFailure(429, 20_000))
      .mockResolvedValue("stored");
    const result = submitWithRetry(attempt, policy);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("stored");
  });

  it("stops at once on a failure that is not transient", async () => {
    const forbidden = new HttpFailure(403, null);
    const attempt = vi.fn().mockRejectedValue(forbidden);
    await expect(submitWithRetry(attempt, policy)).rejects.toBe(forbidden);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
