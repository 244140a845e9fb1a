import { describe, expect, it } from "vitest";

import { cutoffFor, monthsBefore, parseAge } from "./admin.ts";

describe("monthsBefore", () => {
  it("keeps the day and time of day", () => {
    expect(monthsBefore(new Date("2026-05-14T10:30:00.000Z"), 24).toISOString()).toBe(
      "2024-05-14T10:30:00.000Z",
    );
  });

  it("crosses a year boundary", () => {
    expect(monthsBefore(new Date("2026-02-10T00:00:00.000Z"), 3).toISOString()).toBe(
      "2025-11-10T00:00:00.000Z",
    );
  });

  it("clamps to the end of a shorter month", () => {
    expect(monthsBefore(new Date("2026-05-31T08:00:00.000Z"), 3).toISOString()).toBe(
      "2026-02-28T08:00:00.000Z",
    );
    expect(monthsBefore(new Date("2024-03-31T08:00:00.000Z"), 1).toISOString()).toBe(
      "2024-02-29T08:00:00.000Z",
    );
  });
});

describe("parseAge", () => {
  it("reads months by default and days with d", () => {
    expect(parseAge("24m")).toEqual({ amount: 24, unit: "months" });
    expect(parseAge("12")).toEqual({ amount: 12, unit: "months" });
    expect(parseAge("30d")).toEqual({ amount: 30, unit: "days" });
  });

  it("refuses what it cannot read", () => {
    expect(() => parseAge("two years")).toThrow(/Cannot read the age/);
    expect(() => parseAge("0m")).toThrow(/at least 1/);
    expect(() => parseAge("-3m")).toThrow(/Cannot read the age/);
  });
});

describe("cutoffFor", () => {
  it("subtracts whole days for a days age", () => {
    expect(
      cutoffFor({ amount: 30, unit: "days" }, new Date("2026-03-31T12:00:00.000Z")).toISOString(),
    ).toBe("2026-03-01T12:00:00.000Z");
  });
});
