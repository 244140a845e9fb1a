import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  buildCsp,
  buildCspManifest,
  cspHash,
  isTokenPage,
  scanInlineScripts,
  securityHeaders,
  staticHtmlFileFor,
} from "./security-headers.ts";

const sha = (text: string) =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("scanInlineScripts", () => {
  it.each([
    [
      "hashes classic and module inline scripts exactly as written",
      `<html><head><script>window.a = 1;</script></head><body>
<script type="module" async="">import "/assets/x.js";
</script><SCRIPT nonce="abc">\tb()\n</SCRIPT></body></html>`,
      { hashes: [sha("window.a = 1;"), sha('import "/assets/x.js";\n'), sha("\tb()\n")] },
    ],
    [
      "skips external scripts and JSON data blocks, which CSP does not run",
      `<script src="/assets/a.js"></script>
<script type="application/ld+json">{"@type":"MedicalClinic"}</script>
<script type="application/json">{}</script><script>run()</script>`,
      { hashes: [sha("run()")], dataBlocks: 2 },
    ],
    [
      "lists each hash once, and hashes an empty script too",
      "<script>x()</script><script>x()</script><script></script>",
      { hashes: [sha("x()"), sha("")] },
    ],
    [
      "reads attributes that contain a '>'",
      `<script data-x="a>b">go()</script>`,
      { hashes: [sha("go()")] },
    ],
    [
      "reports inline event handlers, which no hash can allow",
      '<button onclick="steal()">Go</button>',
      { inlineHandlers: ["onclick"] },
    ],
    [
      "reports no handler for text that looks like one",
      '<p class="one">online=yes</p>',
      { inlineHandlers: [] },
    ],
  ])("%s", (_title, html, expected) => {
    expect(scanInlineScripts(html)).toMatchObject(expected);
  });

  it("hashes what the browser hashes: CRLF line ends become LF", () => {
    expect(cspHash("a();\r\nb();\rc();")).toBe(sha("a();\nb();\nc();"));
  });
});

/** The policy's directives by name, built from `options` over no scripts, no upgrade. */
function policy(options: Partial<Parameters<typeof buildCsp>[0]>): Map<string, string[]> {
  const text = buildCsp({ scriptSources: [], upgradeInsecureRequests: false, ...options });
  return new Map(
    text.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

describe("buildCsp", () => {
  it("allows scripts only from our origin and the given nonce or hashes", () => {
    const directives = Object.fromEntries(policy({ scriptSources: ["'nonce-abc'"] }));
    expect(directives).toMatchObject({
      "script-src": ["'self'", "'nonce-abc'"],
      "default-src": ["'self'"],
      "object-src": ["'none'"],
      "base-uri": ["'none'"],
      "frame-ancestors": ["'none'"],
      "form-action": ["'self'"],
    });
    expect(directives).not.toHaveProperty("upgrade-insecure-requests");
  });

  it("never allows inline or eval'd script", () => {
    const directives = policy({ scriptSources: ["'sha256-x'"], upgradeInsecureRequests: true });
    expect(directives.get("script-src")).not.toContain("'unsafe-inline'");
    expect(directives.get("script-src")).not.toContain("'unsafe-eval'");
    expect(directives.has("upgrade-insecure-requests")).toBe(true);
  });

  it("lets the console's email preview keep its style attributes, by hash and nothing else", () => {
    const style = "margin:0 0 16px;";
    expect(policy({ console: true, consoleStyles: [style] }).get("style-src")).toEqual([
      "'self'",
      "'unsafe-hashes'",
      sha(style),
    ]);
    expect(policy({ console: true }).get("style-src")).toEqual(["'self'"]);
  });
});

const clientDir = mkdtempSync(path.join(tmpdir(), "csp-client-"));
mkdirSync(path.join(clientDir, "team"));
writeFileSync(path.join(clientDir, "index.html"), "<script>home()</script>");
writeFileSync(path.join(clientDir, "team", "index.html"), "<script>team()</script>");
const { manifest } = buildCspManifest(clientDir);

const servers: { close(): void }[] = [];
const urls = { on: "", off: "", untrusting: "" };

beforeAll(async () => {
  /** Our headers (HSTS on or off, a proxy trusted or not), answering with the response's nonce. */
  const listen = async (hsts: boolean, trustProxy = 1) => {
    const app = express();
    app.disable("x-powered-by");
    app.set("trust proxy", trustProxy);
    for (const h of securityHeaders({ hsts, manifest })) app.use(h);
    app.use((_req, res) => {
      res.json({ nonce: res.locals.cspNonce ?? null });
    });
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await once(server, "listening");
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  urls.on = await listen(true);
  urls.off = await listen(false);
  urls.untrusting = await listen(true, 0);
});

afterAll(() => {
  for (const s of servers.splice(0)) s.close();
});

it("staticHtmlFileFor maps clean paths to their prerendered file, and a query string to none", () => {
  const files = { "/": "index.html", "/team": "team/index.html" } as Record<string, string>;
  for (const p of ["/", "/team", "/team?x=1", "/team/index.html", "/nowhere", "/%E0%A4%A"]) {
    expect(staticHtmlFileFor(manifest, p), p).toBe(files[p]);
  }
});

describe("securityHeaders", () => {
  it("sends a prerendered page's own script hashes and no nonce", async () => {
    const res = await fetch(`${urls.on}/team`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(cspHash("team()"));
    expect(csp).not.toContain(cspHash("home()"));
    expect(csp).not.toContain("'nonce-");
    expect(await res.json()).toEqual({ nonce: null });
  });

  it("gives every rendered response a fresh 128-bit nonce that matches its policy", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      const res = await fetch(`${urls.on}/team?i=${i}`, { method: i % 2 ? "POST" : "GET" });
      const { nonce } = (await res.json()) as { nonce: string };
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(res.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
      seen.add(nonce);
    }
    expect(seen.size).toBe(5);
  });

  it("sends HSTS and upgrade-insecure-requests only on requests that came over TLS", async () => {
    const tls = { headers: { "x-forwarded-proto": "https" } };
    // Both headers, or neither.
    const cases = [
      ["through a trusted TLS proxy", urls.on, tls, true],
      ["plain http, on the same server", urls.on, {}, false],
      ["a forwarded https from a client not trusted as a proxy", urls.untrusting, tls, false],
      ["HSTS=false, even over TLS", urls.off, tls, false],
    ] as const;
    for (const path of ["/", "/team", "/anything?x=1"]) {
      for (const [label, url, init, both] of cases) {
        const res = await fetch(`${url}${path}`, init);
        expect(res.headers.get("strict-transport-security"), `${label} ${path}`).toBe(
          both ? "max-age=63072000; includeSubDomains" : null,
        );
        const csp = res.headers.get("content-security-policy");
        expect(csp?.includes("upgrade-insecure-requests"), `${label} ${path}`).toBe(both);
      }
    }
  });

  it("sets the isolation, sniffing, referrer, framing and permissions headers", async () => {
    const res = await fetch(`${urls.off}/anything`);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-origin",
      "x-frame-options": "DENY",
    });
    expect(res.headers.get("permissions-policy")).toMatch(
      /camera=\(\).*geolocation=\(\).*microphone=\(\)/,
    );
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("keeps the email-link pages out of caches, indexes and Referer headers", async () => {
    for (const p of [
      "/unsubscribe?token=u.x.y",
      "/register-interest/confirm",
      "/unsubscribe.data",
    ]) {
      const res = await fetch(`${urls.off}${p}`);
      expect(res.headers.get("cache-control"), p).toBe("no-store");
      expect(res.headers.get("x-robots-tag"), p).toBe("noindex");
      // One policy, not helmet's with ours appended.
      expect(res.headers.get("referrer-policy"), p).toBe("same-origin");
      // Still rendered with a nonce, under the same CSP.
      expect(((await res.json()) as { nonce: string | null }).nonce).toMatch(/^[\w+/=]{24}$/);
    }
    const other = await fetch(`${urls.off}/register-interest`);
    expect(other.headers.get("cache-control")).toBeNull();
    expect(other.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});

it("isTokenPage knows every spelling React Router renders the two pages for, and nothing else", () => {
  const pages = ["/unsubscribe", "/register-interest/confirm"];
  const spellings = [...pages, ...["/", ".data"].flatMap((end) => pages.map((p) => p + end))];
  for (const p of [...spellings, "/Unsubscribe", "/%75nsubscribe"]) {
    expect(isTokenPage(p), p).toBe(true);
  }
  for (const p of ["/", "/register-interest", "/unsubscribe/more", "/confirm", "/%E0%A4%A"]) {
    expect(isTokenPage(p), p).toBe(false);
  }
});
