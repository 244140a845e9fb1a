import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  CONSENT_LIFETIME_MS,
  CONSENT_STORAGE_KEY,
  type Consent,
  ISO_DATE_TIME,
  essentialOnly,
  serializeConsent,
} from "./consent-record.ts";
import { consentScript } from "./consent-script.ts";

const acceptAll: Consent = { essential: true, analytics: true, functional: true, marketing: true };

/** What the script must decide, written plainly: the model it is compared with. */
function problemWith(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const record = value as Record<string, unknown>;
  if (record["version"] !== 1) return "version must be 1";
  if (record["essential"] !== true) return "essential must be true";
  for (const key of ["analytics", "functional", "marketing"]) {
    if (typeof record[key] !== "boolean") return `${key} must be a boolean`;
  }
  const at = record["decidedAt"];
  if (typeof at !== "string" || !ISO_DATE_TIME.test(at) || Number.isNaN(Date.parse(at))) {
    return "decidedAt must be an ISO date-time";
  }
  return null;
}

type ParsedConsent =
  | { kind: "none" | "expired" }
  | { kind: "stored"; consent: Consent }
  | { kind: "invalid"; error: Error };

function parseStoredConsent(raw: string | null, now: Date = new Date()): ParsedConsent {
  if (raw === null) return { kind: "none" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { kind: "invalid", error: error instanceof Error ? error : new Error(String(error)) };
  }
  const problem = problemWith(json);
  if (problem !== null) {
    return { kind: "invalid", error: new Error(`Stored consent has the wrong shape: ${problem}`) };
  }
  const { essential, analytics, functional, marketing, decidedAt } = json as Consent & {
    decidedAt: string;
  };
  if (now.getTime() - Date.parse(decidedAt) > CONSENT_LIFETIME_MS) return { kind: "expired" };
  return { kind: "stored", consent: { essential, analytics, functional, marketing } };
}

/** What the script logged on the last run (it logs an unreadable record: spec section 8). */
let logged: unknown[][] = [];

/** Runs the inline script against a fake localStorage and document, and returns what it set. */
function runScript(stored: string | null, now: Date): string | undefined {
  logged = [];
  const console = { error: (...args: unknown[]) => logged.push(args) };
  const attributes = new Map<string, string>();
  const localStorage = { getItem: (key: string) => (key === CONSENT_STORAGE_KEY ? stored : null) };
  const document = {
    documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) },
    readyState: "complete",
    addEventListener: () => {},
    getElementById: () => null,
  };
  const FakeDate = class extends Date {
    static override now() {
      return now.getTime();
    }
  };
  const script = new Function("localStorage", "document", "Date", "console", consentScript);
  script(localStorage, document, FakeDate, console);
  return attributes.get("data-consent");
}

const now = new Date("2026-11-23T12:00:00.000Z");

describe("the inline consent script", () => {
  const decidedAgo = (ms: number) => serializeConsent(acceptAll, new Date(now.getTime() - ms));

  it.each([
    ["nothing stored", "ask", null],
    ["a choice exactly its lifetime old", "stored", decidedAgo(CONSENT_LIFETIME_MS)],
    ["a choice one millisecond older, expired", "ask", decidedAgo(CONSENT_LIFETIME_MS + 1)],
  ])("given %s, says '%s'", (_what, says, stored) => {
    expect(runScript(stored, now)).toBe(says);
  });

  it("agrees with parseStoredConsent on corrupted and odd values", () => {
    const record = fc.record(
      {
        version: fc.constantFrom(1, 2, "1"),
        essential: fc.constantFrom(true, false, "true"),
        analytics: fc.oneof(fc.boolean(), fc.constant(0)),
        functional: fc.boolean(),
        marketing: fc.oneof(fc.boolean(), fc.constant(null)),
        decidedAt: fc.oneof(
          fc
            .date({ min: new Date("2024-01-01"), max: new Date("2028-01-01"), noInvalidDate: true })
            .map((d) => d.toISOString()),
          fc.constant("2026-02-30T00:00:00Z"),
          fc.constant("yesterday"),
          fc.string(),
        ),
      },
      { requiredKeys: [] },
    );
    const raw = fc.oneof(
      record.map((r) => JSON.stringify(r)),
      fc.json(),
      fc.string(),
      fc.constant("[]"),
      fc.constant("null"),
    );
    fc.assert(
      fc.property(raw, (value) => {
        const { kind } = parseStoredConsent(value, now);
        expect(runScript(value, now)).toBe(kind === "stored" ? "stored" : "ask");
        expect(logged.length > 0).toBe(kind === "invalid");
      }),
      { numRuns: 2000 },
    );
  });
});

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
      expect(runScript(serializeConsent(consent, now), now)).toBe("stored");
    }
  });

  it("expires one year after the choice, so the banner asks again", () => {
    const raw = serializeConsent(acceptAll, new Date("2026-01-01T00:00:00.000Z"));
    expect(parseStoredConsent(raw, new Date("2026-12-31T00:00:00.000Z")).kind).toBe("stored");
    expect(parseStoredConsent(raw, new Date("2027-01-02T00:00:00.000Z")).kind).toBe("expired");
  });

  it("always stores essential as true", () => {
    const parsed = parseStoredConsent(serializeConsent({ ...essentialOnly, essential: false }));
    expect(parsed).toEqual({ kind: "stored", consent: essentialOnly });
  });

  const tampered = (from: string, to: string) => serializeConsent(acceptAll).replace(from, to);
  const decidedAt = (date: string) =>
    JSON.stringify({ ...JSON.parse(serializeConsent(acceptAll)), decidedAt: date });

  it.each([
    ["not JSON", "{oops"],
    ["the wrong shape", JSON.stringify({ analytics: "yes" })],
    ["an unknown version", tampered('"version":1', '"version":9')],
    ["a bare value", "true"],
    ["an array", "[]"],
    ["essential refused", tampered('"essential":true', '"essential":false')],
    ["a category that is not a boolean", tampered('"marketing":true', '"marketing":"true"')],
    ["a date that is not a date", decidedAt("yesterday")],
    ["an impossible date", decidedAt("2025-13-45T99:00:00Z")],
  ])("is invalid when the value is %s, and the page asks again", (_label, raw) => {
    expect(parseStoredConsent(raw).kind).toBe("invalid");
    expect(runScript(raw, new Date())).toBe("ask");
  });
});
