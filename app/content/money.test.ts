import { describe, expect, it } from "vitest";

import { formatGBP } from "./money.ts";

/** The formatters formatGBP stands in for (docs/decisions/023 and 132). */
const whole = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const withPence = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const intl = (amount: number) =>
  Number.isInteger(amount) ? whole.format(amount) : withPence.format(amount);

describe("formatGBP", () => {
  it("shows whole pounds without pence, with thousands separators", () => {
    expect(formatGBP(47)).toBe("£47");
    expect(formatGBP(1234)).toBe("£1,234");
    expect(formatGBP(1644)).toBe("£1,644");
    expect(formatGBP(1_234_567)).toBe("£1,234,567");
    expect(formatGBP(0)).toBe("£0");
  });

  it("shows pence when there are any", () => {
    expect(formatGBP(6.5)).toBe("£6.50");
    expect(formatGBP(12.5)).toBe("£12.50");
    expect(formatGBP(38.5)).toBe("£38.50");
    expect(formatGBP(1234.05)).toBe("£1,234.05");
    expect(formatGBP(999.999)).toBe("£1,000.00");
  });

  it("puts the minus before the pound sign", () => {
    expect(formatGBP(-47)).toBe("-£47");
    expect(formatGBP(-1234)).toBe("-£1,234");
    expect(formatGBP(-12.5)).toBe("-£12.50");
    expect(formatGBP(-0.001)).toBe("-£0.00");
  });

  it("gives what Intl.NumberFormat gives, for the site's prices and for amounts around them", () => {
    const amounts = [
      0, -0, 1e-7, 0.004, 0.005, 0.015, 1.005, 2.675, 6.5, 38.5, 99.99, 100, 999, 1000, 1234.565,
      9999.995, 12_345.6, 99_999, 100_000, 1_000_000, 123_456_789.01, 999_999_999_999.99,
    ];
    // Amounts with long binary tails, from a fixed sequence so a failure can be replayed.
    let seed = 1;
    for (let i = 0; i < 20_000; i += 1) {
      seed = (seed * 48_271) % 2_147_483_647;
      amounts.push((seed / 2_147_483_647) * 10 ** (i % 10));
    }
    for (let pennies = -250_000; pennies <= 250_000; pennies += 7) amounts.push(pennies / 100);
    for (const amount of amounts) {
      for (const value of [amount, -amount])
        expect(formatGBP(value), String(value)).toBe(intl(value));
    }
  });
});
