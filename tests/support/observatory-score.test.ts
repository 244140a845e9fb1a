import { describe, expect, it } from "vitest";

import {
  gradeFor,
  parseCsp,
  scoreCookies,
  scoreCsp,
  scoreFraming,
  scoreHsts,
  scoreReferrerPolicy,
  scoreResponse,
  scoreSri,
} from "./observatory-score.ts";

const STRONG_CSP =
  "default-src 'self'; script-src 'self' 'sha256-abc='; style-src 'self'; object-src 'none'; frame-ancestors 'none'";

function strongHeaders(extra: Record<string, string> = {}): Headers {
  return new Headers({
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": STRONG_CSP,
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-resource-policy": "same-origin",
    ...extra,
  });
}

const base = {
  origin: "https://clinic.example",
  https: true,
  redirection: "redirection-to-https" as const,
};

describe("scoreCsp", () => {
  it("penalises a missing or unparsable policy by 25", () => {
    expect(scoreCsp(null)).toMatchObject({ result: "csp-not-implemented", modifier: -25 });
    expect(scoreCsp("default-src 'self'; default-src 'none'")).toMatchObject({
      result: "csp-header-invalid",
    });
  });

  it("treats 'unsafe-inline' in script-src as unsafe unless a nonce or hash overrides it", () => {
    const inline = "default-src 'self'; script-src 'self' 'unsafe-inline'";
    expect(scoreCsp(`${inline}; object-src 'none'`).modifier).toBe(-20);
    expect(scoreCsp(`${inline} 'nonce-x'; object-src 'none'`).result).toBe(
      "csp-implemented-with-no-unsafe",
    );
  });

  it("treats a policy without any script restriction as unsafe", () => {
    for (const policy of ["frame-ancestors 'none'", "default-src 'self'; script-src https:"]) {
      expect(scoreCsp(policy).result, policy).toBe("csp-implemented-with-unsafe-inline");
    }
  });

  it("penalises 'unsafe-eval' by 10 and http sources by 20", () => {
    expect(scoreCsp("default-src 'self'; script-src 'self' 'unsafe-eval'").modifier).toBe(-10);
    expect(scoreCsp("default-src 'self'; script-src 'self' http://cdn.example").modifier).toBe(-20);
    expect(scoreCsp("default-src 'self'; img-src http://img.example").modifier).toBe(-10);
  });

  it("gives no bonus for 'unsafe-inline' in style-src, 5 without it, 10 with default-src 'none'", () => {
    expect(scoreCsp("default-src 'self'; style-src 'self' 'unsafe-inline'").modifier).toBe(0);
    expect(scoreCsp("default-src 'self'").modifier).toBe(5);
    expect(scoreCsp("default-src 'none'; script-src 'self'").modifier).toBe(10);
  });
});

describe("other tests", () => {
  it("rewards private referrer policies and penalises leaky ones", () => {
    expect(scoreReferrerPolicy("strict-origin-when-cross-origin").modifier).toBe(5);
    expect(scoreReferrerPolicy("unsafe-url").modifier).toBe(-5);
    expect(scoreReferrerPolicy("nonsense").modifier).toBe(-5);
    expect(scoreReferrerPolicy("unsafe-url, no-referrer").modifier).toBe(5);
    expect(scoreReferrerPolicy(null).modifier).toBe(0);
  });

  it("needs six months of HSTS over https", () => {
    expect(scoreHsts("max-age=15552000", true).modifier).toBe(0);
    expect(scoreHsts("max-age=86400", true).modifier).toBe(-10);
    expect(scoreHsts("includeSubDomains", true).modifier).toBe(-20);
    expect(scoreHsts(null, true).modifier).toBe(-20);
    expect(scoreHsts("max-age=63072000", false).result).toBe("hsts-not-implemented-no-https");
  });

  it("judges cookies by their flags", () => {
    expect(scoreCookies([], true).result).toBe("cookies-not-found");
    expect(scoreCookies(["sid=1; Path=/"], false).modifier).toBe(-40);
    expect(scoreCookies(["sid=1; Secure; HttpOnly; SameSite=Lax"], true).modifier).toBe(5);
    expect(scoreCookies(["theme=dark"], true).modifier).toBe(-5);
  });

  it("gives frame-ancestors a bonus and a missing framing policy a penalty", () => {
    expect(scoreFraming(null, parseCsp("frame-ancestors 'none'")).modifier).toBe(5);
    expect(scoreFraming("DENY", null).modifier).toBe(0);
    expect(scoreFraming(null, parseCsp("default-src 'self'")).modifier).toBe(-20);
  });

  it("checks subresource integrity of external scripts only", () => {
    const o = "https://clinic.example";
    const html = (src: string) => scoreSri("text/html", `<script src="${src}"></script>`, o);
    expect(html("/assets/a.js").modifier).toBe(0);
    expect(html("https://cdn.example/a.js").modifier).toBe(-5);
    expect(html("http://cdn.example/a.js").modifier).toBe(-50);
    expect(scoreSri("application/json", undefined, o).modifier).toBe(0);
  });
});

describe("scoreResponse", () => {
  it("scores a hardened response A+ with its bonuses", () => {
    const result = scoreResponse({ ...base, headers: strongHeaders(), body: "<p>hi</p>" });
    expect(result.modifiers.filter((m) => m.modifier < 0)).toEqual([]);
    expect(result.score).toBe(115);
    expect(result.grade).toBe("A+");
  });

  it("withholds bonuses when the score without them is below 90", () => {
    const headers = strongHeaders();
    headers.delete("strict-transport-security");
    const result = scoreResponse({ ...base, headers, body: "" });
    expect(result.score).toBe(80);
    expect(result.grade).toBe("B+");
  });

  it("scores a response with no security headers at all as F", () => {
    const headers = new Headers({ "content-type": "text/html" });
    const result = scoreResponse({ ...base, headers, body: "" });
    expect(result.score).toBe(30);
    expect(gradeFor(result.score)).toBe("D");
  });

  it("penalises a CORS policy that reflects any origin with credentials", () => {
    const headers = strongHeaders({
      "access-control-allow-origin": "https://evil.example",
      "access-control-allow-credentials": "true",
    });
    const result = scoreResponse({ ...base, headers, corsProbeOrigin: "https://evil.example" });
    expect(result.score).toBe(50);
  });
});
