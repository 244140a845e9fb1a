import { describe, expect, it } from "vitest";

import { cn } from "./cn.ts";

describe("cn", () => {
  it("joins class names, dropping empty ones, and merges nothing", () => {
    expect(cn("px-3", false, undefined, null, "", "py-2")).toBe("px-3 py-2");
    expect(cn("hidden", { "sm:block": true, "lg:flex": false })).toBe("hidden sm:block");
    // Conflicts are kept as written; tests/e2e/a11y.spec.ts makes sure no page holds one.
    expect(cn("p-6", "p-0")).toBe("p-6 p-0");
  });
});
