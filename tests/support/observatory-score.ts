/**
 * A scorer for HTTP responses that follows the MDN HTTP Observatory's published
 * scoring methodology (baseline 100; penalties and bonuses per test; bonuses only
 * count when the score without them is at least 90). The table is in
 * docs/security.md. Pure: the caller fetches, this judges.
 */

export type Modifier = { test: string; result: string; modifier: number };

export type RedirectionResult =
  | "redirection-to-https"
  | "redirection-not-needed-no-http"
  | "redirection-all-redirects-preloaded"
  | "redirection-off-host-from-http"
  | "redirection-not-to-https-on-initial-redirection"
  | "redirection-missing"
  | "redirection-not-to-https";

const REDIRECTION: Record<RedirectionResult, number> = {
  "redirection-all-redirects-preloaded": 0,
  "redirection-to-https": 0,
  "redirection-not-needed-no-http": 0,
  "redirection-off-host-from-http": -5,
  "redirection-not-to-https-on-initial-redirection": -10,
  "redirection-missing": -20,
  "redirection-not-to-https": -20,
};

export type ScoreInput = {
  headers: Headers;
  /** The response body when it is HTML (for the Subresource Integrity test). */
  body?: string;
  /** The origin the response came from, e.g. "https://example.org". */
  origin: string;
  /** Whether the site is reached over https (HSTS only counts there). */
  https: boolean;
  redirection: RedirectionResult;
  /** The foreign Origin header the request carried, to detect a reflecting CORS policy. */
  corsProbeOrigin?: string;
};

export type Score = { score: number; grade: string; modifiers: Modifier[] };

// ---------------------------------------------------------------- CSP

export type ParsedCsp = Map<string, string[]>;

/** Parses one serialised policy; returns null when it cannot be parsed. */
export function parseCsp(header: string): ParsedCsp | null {
  const policy: ParsedCsp = new Map();
  for (const raw of header.split(";")) {
    const tokens = raw.trim().split(/\s+/).filter(Boolean);
    const [name, ...values] = tokens;
    if (!name) continue;
    if (!/^[a-z0-9-]+$/i.test(name)) return null;
    if ([...values].some((v) => /[^\x21-\x7e]/.test(v))) return null;
    const key = name.toLowerCase();
    // A repeated directive is ignored by browsers; the Observatory calls the header invalid.
    if (policy.has(key)) return null;
    policy.set(
      key,
      values.map((v) => (v.startsWith("'") ? v.toLowerCase() : v)),
    );
  }
  return policy.size > 0 ? policy : null;
}

const FETCH_FALLBACK = "default-src";

function effective(policy: ParsedCsp, directive: string): string[] | undefined {
  return policy.get(directive) ?? policy.get(FETCH_FALLBACK);
}

function allowsAnything(sources: string[] | undefined): boolean {
  if (sources === undefined) return true;
  return sources.some((s) => s === "*" || s === "http:" || s === "https:" || s === "data:");
}

function insecure(sources: string[] | undefined): boolean {
  return (sources ?? []).some((s) => s === "http:" || s.startsWith("http://") || s === "ftp:");
}

export function scoreCsp(headerValue: string | null): Modifier {
  const test = "content-security-policy";
  if (headerValue === null) return { test, result: "csp-not-implemented", modifier: -25 };
  const policy = parseCsp(headerValue);
  if (policy === null) return { test, result: "csp-header-invalid", modifier: -25 };

  const script = effective(policy, "script-src");
  const object = effective(policy, "object-src");
  const style = effective(policy, "style-src");
  const hasNonceOrHash = (script ?? []).some((s) => /^'(nonce|sha256|sha384|sha512)-/.test(s));
  const strictDynamic = (script ?? []).includes("'strict-dynamic'");

  // 'unsafe-inline' is ignored by browsers once a nonce or hash is present.
  const unsafeInline =
    ((script ?? []).includes("'unsafe-inline'") && !hasNonceOrHash) ||
    (allowsAnything(script) && !strictDynamic) ||
    allowsAnything(object);
  if (unsafeInline) return { test, result: "csp-implemented-with-unsafe-inline", modifier: -20 };
  if (insecure(script) || insecure(object)) {
    return { test, result: "csp-implemented-with-insecure-scheme", modifier: -20 };
  }
  if ((script ?? []).includes("'unsafe-eval'")) {
    return { test, result: "csp-implemented-with-unsafe-eval", modifier: -10 };
  }
  const passive = ["img-src", "media-src", "style-src", "font-src", "connect-src"].some((d) =>
    insecure(effective(policy, d)),
  );
  if (passive) {
    return {
      test,
      result: "csp-implemented-with-insecure-scheme-in-passive-content-only",
      modifier: -10,
    };
  }
  if ((style ?? []).includes("'unsafe-inline'")) {
    return { test, result: "csp-implemented-with-unsafe-inline-in-style-src-only", modifier: 0 };
  }
  if ((policy.get(FETCH_FALLBACK) ?? []).join(" ") === "'none'") {
    return { test, result: "csp-implemented-with-no-unsafe-default-src-none", modifier: 10 };
  }
  return { test, result: "csp-implemented-with-no-unsafe", modifier: 5 };
}

// ---------------------------------------------------------------- cookies

const SESSION_NAME = /sess|sid|login|token|auth|csrf|xsrf/i;

export function scoreCookies(setCookies: string[], hsts: boolean): Modifier {
  const test = "cookies";
  if (setCookies.length === 0) return { test, result: "cookies-not-found", modifier: 0 };
  const cookies = setCookies.map((line) => {
    const [pair = "", ...attrs] = line.split(";").map((p) => p.trim());
    const flags = attrs.map((a) => a.split("=", 1)[0]?.toLowerCase() ?? "");
    const sameSite = attrs
      .find((a) => a.toLowerCase().startsWith("samesite="))
      ?.split("=")[1]
      ?.toLowerCase();
    return {
      session: SESSION_NAME.test(pair.split("=", 1)[0] ?? ""),
      secure: flags.includes("secure"),
      httpOnly: flags.includes("httponly"),
      sameSite,
    };
  });
  if (
    cookies.some((c) => c.sameSite !== undefined && !["strict", "lax", "none"].includes(c.sameSite))
  ) {
    return { test, result: "cookies-samesite-flag-invalid", modifier: -20 };
  }
  if (cookies.some((c) => c.session && !c.secure)) {
    return hsts
      ? { test, result: "cookies-session-without-secure-flag-but-protected-by-hsts", modifier: -10 }
      : { test, result: "cookies-session-without-secure-flag", modifier: -40 };
  }
  if (cookies.some((c) => c.session && !c.httpOnly)) {
    return { test, result: "cookies-session-without-httponly-flag", modifier: -30 };
  }
  if (cookies.some((c) => !c.secure)) {
    return hsts
      ? { test, result: "cookies-without-secure-flag-but-protected-by-hsts", modifier: -5 }
      : { test, result: "cookies-without-secure-flag", modifier: -20 };
  }
  if (cookies.every((c) => c.sameSite === "strict" || c.sameSite === "lax")) {
    return { test, result: "cookies-secure-with-httponly-sessions-and-samesite", modifier: 5 };
  }
  return { test, result: "cookies-secure-with-httponly-sessions", modifier: 0 };
}

// ---------------------------------------------------------------- CORS

export function scoreCors(headers: Headers, probeOrigin: string | undefined): Modifier {
  const test = "cross-origin-resource-sharing";
  const allowOrigin = headers.get("access-control-allow-origin")?.trim();
  if (!allowOrigin)
    return { test, result: "cross-origin-resource-sharing-not-implemented", modifier: 0 };
  const credentials =
    headers.get("access-control-allow-credentials")?.trim().toLowerCase() === "true";
  if (probeOrigin !== undefined && allowOrigin === probeOrigin && credentials) {
    return {
      test,
      result: "cross-origin-resource-sharing-implemented-with-universal-access",
      modifier: -50,
    };
  }
  if (allowOrigin === "*") {
    return {
      test,
      result: "cross-origin-resource-sharing-implemented-with-public-access",
      modifier: 0,
    };
  }
  return {
    test,
    result: "cross-origin-resource-sharing-implemented-with-restricted-access",
    modifier: 0,
  };
}

// ---------------------------------------------------------------- Referrer-Policy

const PRIVATE_REFERRER = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
]);
const UNSAFE_REFERRER = new Set(["origin", "origin-when-cross-origin", "unsafe-url"]);

export function scoreReferrerPolicy(value: string | null): Modifier {
  const test = "referrer-policy";
  if (value === null) return { test, result: "referrer-policy-not-implemented", modifier: 0 };
  // Browsers use the last token they recognise.
  const tokens = value
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter(
      (t) =>
        PRIVATE_REFERRER.has(t) || UNSAFE_REFERRER.has(t) || t === "no-referrer-when-downgrade",
    );
  const policy = tokens.at(-1);
  if (policy === undefined) return { test, result: "referrer-policy-header-invalid", modifier: -5 };
  if (PRIVATE_REFERRER.has(policy)) return { test, result: "referrer-policy-private", modifier: 5 };
  if (UNSAFE_REFERRER.has(policy)) return { test, result: "referrer-policy-unsafe", modifier: -5 };
  return { test, result: "referrer-policy-no-referrer-when-downgrade", modifier: 0 };
}

// ---------------------------------------------------------------- HSTS

export const SIX_MONTHS = 15_552_000;

export function scoreHsts(value: string | null, https: boolean): Modifier {
  const test = "strict-transport-security";
  if (!https) return { test, result: "hsts-not-implemented-no-https", modifier: -20 };
  if (value === null) return { test, result: "hsts-not-implemented", modifier: -20 };
  const maxAge = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value)?.[1];
  if (maxAge === undefined) return { test, result: "hsts-header-invalid", modifier: -20 };
  if (Number(maxAge) < SIX_MONTHS) {
    return { test, result: "hsts-implemented-max-age-less-than-six-months", modifier: -10 };
  }
  return { test, result: "hsts-implemented-max-age-at-least-six-months", modifier: 0 };
}

// ---------------------------------------------------------------- SRI

export function scoreSri(
  contentType: string | null,
  body: string | undefined,
  origin: string,
): Modifier {
  const test = "subresource-integrity";
  if (!contentType?.toLowerCase().startsWith("text/html") || body === undefined) {
    return { test, result: "sri-not-implemented-response-not-html", modifier: 0 };
  }
  const scripts = [...body.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1] ?? "")
    .map((attrs) => ({
      src: /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1],
      integrity: /\bintegrity\s*=/i.test(attrs),
    }))
    .filter((s): s is { src: string; integrity: boolean } => s.src !== undefined);
  if (scripts.length === 0)
    return { test, result: "sri-not-implemented-but-no-scripts-loaded", modifier: 0 };
  const resolved = scripts.map((s) => ({ ...s, url: new URL(s.src, `${origin}/`) }));
  const external = resolved.filter((s) => s.url.origin !== origin);
  const insecureExternal = external.some((s) => s.url.protocol !== "https:");
  const allIntegrity = resolved.every((s) => s.integrity);
  if (allIntegrity) {
    if (insecureExternal) {
      return {
        test,
        result: "sri-implemented-but-external-scripts-not-loaded-securely",
        modifier: -20,
      };
    }
    return external.length === 0
      ? { test, result: "sri-implemented-and-all-scripts-loaded-securely", modifier: 5 }
      : { test, result: "sri-implemented-and-external-scripts-loaded-securely", modifier: 5 };
  }
  if (external.length === 0) {
    return {
      test,
      result: "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
      modifier: 0,
    };
  }
  if (insecureExternal) {
    return {
      test,
      result: "sri-not-implemented-and-external-scripts-not-loaded-securely",
      modifier: -50,
    };
  }
  return { test, result: "sri-not-implemented-but-external-scripts-loaded-securely", modifier: -5 };
}

// ---------------------------------------------------------------- X-Content-Type-Options

export function scoreContentTypeOptions(value: string | null): Modifier {
  const test = "x-content-type-options";
  if (value === null)
    return { test, result: "x-content-type-options-not-implemented", modifier: -5 };
  if (value.trim().toLowerCase() === "nosniff") {
    return { test, result: "x-content-type-options-nosniff", modifier: 0 };
  }
  return { test, result: "x-content-type-options-header-invalid", modifier: -5 };
}

// ---------------------------------------------------------------- framing

export function scoreFraming(xfo: string | null, csp: ParsedCsp | null): Modifier {
  const test = "x-frame-options";
  const ancestors = csp?.get("frame-ancestors");
  if (ancestors !== undefined && ancestors.length > 0 && !ancestors.includes("*")) {
    return { test, result: "x-frame-options-implemented-via-csp", modifier: 5 };
  }
  if (xfo === null) return { test, result: "x-frame-options-not-implemented", modifier: -20 };
  const v = xfo.trim().toLowerCase();
  if (v === "deny" || v === "sameorigin") {
    return { test, result: "x-frame-options-sameorigin-or-deny", modifier: 0 };
  }
  if (v.startsWith("allow-from "))
    return { test, result: "x-frame-options-allow-from-origin", modifier: 0 };
  return { test, result: "x-frame-options-header-invalid", modifier: -20 };
}

// ---------------------------------------------------------------- CORP

export function scoreCorp(value: string | null): Modifier {
  const test = "cross-origin-resource-policy";
  if (value === null) return { test, result: "corp-not-implemented", modifier: 0 };
  const v = value.trim().toLowerCase();
  if (v === "same-origin" || v === "same-site" || v === "cross-origin") {
    return { test, result: `corp-implemented-with-${v}`, modifier: 0 };
  }
  return { test, result: "corp-header-invalid", modifier: -5 };
}

// ---------------------------------------------------------------- total

const GRADES: [number, string][] = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
  [0, "F"],
];

export function gradeFor(score: number): string {
  return GRADES.find(([min]) => score >= min)?.[1] ?? "F";
}

export function scoreResponse(input: ScoreInput): Score {
  const { headers } = input;
  const cspHeader = headers.get("content-security-policy");
  const hstsOn = input.https && headers.get("strict-transport-security") !== null;
  const modifiers: Modifier[] = [
    scoreCsp(cspHeader),
    scoreCookies(headers.getSetCookie(), hstsOn),
    scoreCors(headers, input.corsProbeOrigin),
    { test: "redirection", result: input.redirection, modifier: REDIRECTION[input.redirection] },
    scoreReferrerPolicy(headers.get("referrer-policy")),
    scoreHsts(headers.get("strict-transport-security"), input.https),
    scoreSri(headers.get("content-type"), input.body, input.origin),
    scoreContentTypeOptions(headers.get("x-content-type-options")),
    scoreFraming(headers.get("x-frame-options"), cspHeader === null ? null : parseCsp(cspHeader)),
    scoreCorp(headers.get("cross-origin-resource-policy")),
  ];
  const penalties = modifiers.filter((m) => m.modifier < 0).reduce((s, m) => s + m.modifier, 0);
  const bonuses = modifiers.filter((m) => m.modifier > 0).reduce((s, m) => s + m.modifier, 0);
  const base = Math.max(0, 100 + penalties);
  const score = base >= 90 ? base + bonuses : base;
  return { score, grade: gradeFor(score), modifiers };
}
