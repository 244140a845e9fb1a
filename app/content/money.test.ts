import { describe, expect, it } from "vitest";

import { formatGBP } from "./money.ts";

describe("formatGBP", () => {
  it("shows whole pounds without pence, with thousands separators", () => {
    expect(formatGBP(47)).toBe("£47");
    expect(formatGBP(1644)).toBe("£1,644");
    expect(formatGBP(0)).toBe("£0");
  });

  it("shows pence when there are any", () => {
    expect(formatGBP(6.5)).toBe("£6.50");
    expect(formatGBP(38.5)).toBe("£38.50");
    expect(formatGBP(1234.05)).toBe("£1,234.05");
  });
});
