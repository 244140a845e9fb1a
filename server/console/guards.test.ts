import { describe, expect, it } from "vitest";

import { isConsoleOrigin } from "./guards.ts";

describe("the console's origin check", () => {
  const origin = "https://console.clinic.example";

  it("accepts exactly the console's origin", () => {
    expect(isConsoleOrigin(origin, origin)).toBe(true);
  });

  it.each([
    ["no Origin", undefined],
    ["null", "null"],
    ["plain http", "http://console.clinic.example"],
    ["another port", "https://console.clinic.example:8443"],
    ["the public site", "https://www.clinic.example"],
    ["a look-alike", "https://console.clinic.example.evil.test"],
    ["a path after it", "https://console.clinic.example/"],
    ["garbage", "not a url"],
  ])("refuses %s", (_label, value) => {
    expect(isConsoleOrigin(value, origin)).toBe(false);
  });
});
