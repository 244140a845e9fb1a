import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { backoffDelayMs } from "./backoff.ts";

const policy = { baseMs: 2_000, capMs: 600_000 };

describe("backoffDelayMs", () => {
  it("doubles the ceiling with each attempt", () => {
    const atTop = () => 0.999_999;
    expect(backoffDelayMs(1, policy, atTop)).toBe(1_999);
    expect(backoffDelayMs(2, policy, atTop)).toBe(3_999);
    expect(backoffDelayMs(5, policy, atTop)).toBe(31_999);
  });

  it("never exceeds the cap, however many attempts", () => {
    expect(backoffDelayMs(9, policy, () => 0.999_999)).toBe(511_999);
    expect(backoffDelayMs(10, policy, () => 0.999_999)).toBe(599_999);
    expect(backoffDelayMs(5_000, policy, () => 0.999_999)).toBe(599_999);
  });

  it("can be anywhere from zero up to the ceiling (full jitter)", () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(4_000);
  });

  it("stays within [0, min(cap, base * 2^(n-1))) for any attempt and random draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, draw) => {
          const delay = backoffDelayMs(attempt, policy, () => draw);
          const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
          return Number.isInteger(delay) && delay >= 0 && delay < ceiling;
        },
      ),
    );
  });
});
