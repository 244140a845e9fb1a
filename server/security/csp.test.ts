import { describe, expect, it } from "vitest";

import { buildCsp, nonceSource } from "./csp.ts";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

describe("buildCsp", () => {
  it("allows scripts only from our origin and the given nonce or hashes", () => {
    const policy = directives(
      buildCsp({ scriptSources: [nonceSource("abc")], upgradeInsecureRequests: false }),
    );
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("never allows inline or eval'd script", () => {
    const text = buildCsp({ scriptSources: ["'sha256-x'"], upgradeInsecureRequests: true });
    const script = directives(text).get("script-src") ?? [];
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    expect(directives(text).has("upgrade-insecure-requests")).toBe(true);
  });
});
