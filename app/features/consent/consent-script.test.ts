import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  CONSENT_LIFETIME_MS,
  CONSENT_STORAGE_KEY,
  acceptAll,
  essentialOnly,
  parseStoredConsent,
  serializeConsent,
} from "./consent-record.ts";
import { consentScript } from "./consent-script.ts";

/** What the script logged on the last run (it logs an unreadable record: spec section 8). */
let logged: unknown[][] = [];

/** Runs the inline script against a fake localStorage and document, and returns what it set. */
function runScript(stored: string | null, now: Date): string | undefined {
  logged = [];
  const console = { error: (...args: unknown[]) => logged.push(args) };
  const attributes = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => (key === CONSENT_STORAGE_KEY ? stored : null),
  };
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
  new Function("localStorage", "document", "Date", "console", consentScript)(
    localStorage,
    document,
    FakeDate,
    console,
  );
  return attributes.get("data-consent");
}

function expected(stored: string | null, now: Date): string {
  return parseStoredConsent(stored, now).kind === "stored" ? "stored" : "ask";
}

const now = new Date("2026-11-23T12:00:00.000Z");

describe("the inline consent script", () => {
  it("says 'ask' with nothing stored and 'stored' for a fresh choice", () => {
    expect(runScript(null, now)).toBe("ask");
    expect(runScript(serializeConsent(acceptAll, now), now)).toBe("stored");
    expect(runScript(serializeConsent(essentialOnly, now), now)).toBe("stored");
  });

  it("says 'ask' for an expired choice and 'stored' one millisecond before", () => {
    const decided = new Date(now.getTime() - CONSENT_LIFETIME_MS);
    expect(runScript(serializeConsent(acceptAll, decided), now)).toBe("stored");
    const older = new Date(decided.getTime() - 1);
    expect(runScript(serializeConsent(acceptAll, older), now)).toBe("ask");
  });

  it("agrees with parseStoredConsent on corrupted and odd values", () => {
    const record = fc.record(
      {
        version: fc.oneof(fc.constant(1), fc.constant(2), fc.constant("1")),
        essential: fc.oneof(fc.constant(true), fc.constant(false), fc.constant("true")),
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
        expect(runScript(value, now)).toBe(expected(value, now));
        expect(logged.length > 0).toBe(parseStoredConsent(value, now).kind === "invalid");
      }),
      { numRuns: 2000 },
    );
  });
});
