import { expect, test } from "@playwright/test";

import { type ServerProcess, startServer } from "../../scripts/lib/server-process.ts";
import { scanInlineScripts } from "../../server/security-headers.ts";
import { scoreResponse } from "../support/observatory-score.ts";

/**
 * Scores the responses the server sends with the MDN HTTP Observatory's modifiers
 * (tests/support/observatory-score.ts; table in docs/security.md) and asks for
 * A+ on every kind of response: prerendered pages, a server-rendered 404, a
 * hashed asset, the health check and an error.
 *
 * The server runs with the production defaults behind one trusted proxy (TRUST_PROXY=1).
 * TLS and the http->https redirect belong to the reverse proxy in front of it
 * (docs/security.md), so the responses are scored as the proxy serves them: over https
 * (X-Forwarded-Proto, as Caddy sends it), after a same-host redirect.
 */

/** What a TLS-terminating proxy adds to each request it forwards. */
const VIA_TLS_PROXY = { "X-Forwarded-Proto": "https" };

const PROBE_ORIGIN = "https://http-observatory.security.mozilla.org";

let server: ServerProcess;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: "1" } });
});

test.afterAll(async () => {
  await server.stop();
});

async function fetchAndScore(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    redirect: "manual",
    headers: { Origin: PROBE_ORIGIN, ...VIA_TLS_PROXY, ...init.headers },
  });
  const body = await response.text();
  const result = scoreResponse({
    headers: response.headers,
    body,
    origin: server.url,
    https: true,
    redirection: "redirection-to-https",
    corsProbeOrigin: PROBE_ORIGIN,
  });
  return { response, body, result };
}

async function hashedAssetPath() {
  // Content pages ship no module script (docs/decisions/105): /pricing hydrates.
  const html = await (await fetch(`${server.url}/pricing`)).text();
  const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  return asset ?? "";
}

const PAGES: { path: string; status: number }[] = [
  { path: "/", status: 200 },
  { path: "/register-interest", status: 200 },
  { path: "/this-page-does-not-exist", status: 404 },
  { path: "/pricing?treatment=sustanon", status: 200 },
  { path: "/healthz", status: 200 },
  { path: "/%E0%A4%A", status: 400 },
];

for (const { path, status } of PAGES) {
  test(`${path} scores A+ on the Observatory's scale`, async () => {
    const { response, result } = await fetchAndScore(path);
    expect(response.status).toBe(status);
    const penalties = result.modifiers.filter((m) => m.modifier < 0);
    expect(penalties, JSON.stringify(result.modifiers, null, 2)).toEqual([]);
    expect(result.score).toBeGreaterThanOrEqual(100);
    expect(result.grade).toBe("A+");
    test.info().annotations.push({ type: "observatory score", description: String(result.score) });
  });
}

// The pages behind email links carry a token in the URL: their own referrer policy
// (docs/decisions/090) must not cost the grade.
for (const path of ["/register-interest/confirm?token=x", "/unsubscribe?token=x"]) {
  test(`${path} (an email link's page) scores A+ and keeps its URL to our own site`, async () => {
    const { response, result } = await fetchAndScore(path);
    expect(response.status).toBe(400);
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(result.modifiers.filter((m) => m.modifier < 0)).toEqual([]);
    expect(result.grade).toBe("A+");
  });
}

test("a hashed asset also carries the headers and scores A+", async () => {
  const { response, result } = await fetchAndScore(await hashedAssetPath());
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toContain("immutable");
  expect(result.grade).toBe("A+");
});

test("every response carries the full set of headers and no X-Powered-By", async () => {
  const paths = [...PAGES.map((p) => p.path), await hashedAssetPath(), "/favicon.svg"];
  for (const path of paths) {
    const response = await fetch(`${server.url}${path}`, { headers: VIA_TLS_PROXY });
    const h = response.headers;
    expect
      .soft(h.get("strict-transport-security"), path)
      .toBe("max-age=63072000; includeSubDomains");
    expect.soft(h.get("x-content-type-options"), path).toBe("nosniff");
    expect.soft(h.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    expect.soft(h.get("cross-origin-opener-policy"), path).toBe("same-origin");
    expect.soft(h.get("cross-origin-resource-policy"), path).toBe("same-origin");
    expect.soft(h.get("x-frame-options"), path).toBe("DENY");
    expect.soft(h.get("permissions-policy"), path).toMatch(/camera=\(\)/);
    expect.soft(h.get("x-powered-by"), path).toBeNull();
    expect.soft(h.get("access-control-allow-origin"), path).toBeNull();
    expect.soft(h.get("set-cookie"), path).toBeNull();
    const csp = h.get("content-security-policy") ?? "";
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect.soft(scriptSrc, path).toMatch(/'(nonce|sha256)-/);
    expect.soft(scriptSrc, path).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:|data:/);
    for (const d of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "upgrade-insecure-requests",
    ]) {
      expect.soft(csp, path).toContain(d);
    }
    await response.arrayBuffer();
  }
});

test("a prerendered page's policy lists exactly the hashes of its inline scripts", async () => {
  const { response, body } = await fetchAndScore("/register-interest");
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp).not.toContain("'nonce-");
  const { hashes } = scanInlineScripts(body);
  expect(hashes.length).toBeGreaterThan(0);
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1]?.split(" ") ?? [];
  expect(scriptSrc.filter((s) => s.startsWith("'sha256-")).sort()).toEqual([...hashes].sort());
});

test("over plain http no answer carries HSTS or upgrade-insecure-requests", async () => {
  // The same server with its default HSTS setting, asked directly over http (as `npm start`
  // is by a browser on http://127.0.0.1): WebKit would otherwise upgrade every subresource.
  const paths = [...PAGES.map((p) => p.path), await hashedAssetPath(), "/favicon.svg"];
  for (const path of paths) {
    for (const method of ["GET", "HEAD"]) {
      const response = await fetch(`${server.url}${path}`, { method });
      const h = response.headers;
      expect.soft(h.get("strict-transport-security"), `${method} ${path}`).toBeNull();
      expect
        .soft(h.get("content-security-policy") ?? "", `${method} ${path}`)
        .not.toContain("upgrade-insecure-requests");
      expect.soft(h.get("x-content-type-options"), `${method} ${path}`).toBe("nosniff");
      await response.arrayBuffer();
    }
  }
  // A POST answered by the registration action, too.
  const post = await fetch(`${server.url}/register-interest`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: "fullName=&email=",
  });
  expect(post.headers.get("strict-transport-security")).toBeNull();
  expect(post.headers.get("content-security-policy") ?? "").not.toContain(
    "upgrade-insecure-requests",
  );
});
