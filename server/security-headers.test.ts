import { createHash } from "node:crypto";
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
  it("hashes classic and module inline scripts exactly as written", () => {
    const html = `<html><head><script>window.a = 1;</script></head><body>
<script type="module" async="">import "/assets/x.js";
</script><SCRIPT nonce="abc">\tb()\n</SCRIPT></body></html>`;
    expect(scanInlineScripts(html).hashes).toEqual([
      sha("window.a = 1;"),
      sha('import "/assets/x.js";\n'),
      sha("\tb()\n"),
    ]);
  });

  it("skips external scripts and JSON data blocks, which CSP does not run", () => {
    const html = `<script src="/assets/a.js"></script>
<script type="application/ld+json">{"@type":"MedicalClinic"}</script>
<script type="application/json">{}</script><script>run()</script>`;
    const scan = scanInlineScripts(html);
    expect(scan.hashes).toEqual([sha("run()")]);
    expect(scan.dataBlocks).toBe(2);
  });

  it("hashes what the browser hashes: CRLF line ends become LF", () => {
    expect(cspHash("a();\r\nb();\rc();")).toBe(sha("a();\nb();\nc();"));
  });

  it("lists each hash once, and hashes an empty script too", () => {
    expect(
      scanInlineScripts("<script>x()</script><script>x()</script><script></script>").hashes,
    ).toEqual([sha("x()"), sha("")]);
  });

  it("reads attributes that contain a '>'", () => {
    const html = `<script data-x="a>b">go()</script>`;
    expect(scanInlineScripts(html).hashes).toEqual([sha("go()")]);
  });

  it("reports inline event handlers, which no hash can allow", () => {
    expect(scanInlineScripts('<button onclick="steal()">Go</button>').inlineHandlers).toEqual([
      "onclick",
    ]);
    expect(scanInlineScripts('<p class="one">online=yes</p>').inlineHandlers).toEqual([]);
  });
});

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
      buildCsp({ scriptSources: ["'nonce-abc'"], upgradeInsecureRequests: false }),
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

  it("lets the console's email preview keep its style attributes, by hash and nothing else", () => {
    const style = "margin:0 0 16px;";
    const policy = directives(
      buildCsp({
        scriptSources: [],
        upgradeInsecureRequests: false,
        console: true,
        consoleStyles: [style],
      }),
    );
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-hashes'", sha(style)]);
    const plain = directives(
      buildCsp({ scriptSources: [], upgradeInsecureRequests: false, console: true }),
    );
    expect(plain.get("style-src")).toEqual(["'self'"]);
  });
});

const clientDir = mkdtempSync(path.join(tmpdir(), "csp-client-"));
mkdirSync(path.join(clientDir, "team"));
writeFileSync(path.join(clientDir, "index.html"), "<script>home()</script>");
writeFileSync(path.join(clientDir, "team", "index.html"), "<script>team()</script>");
const { manifest } = buildCspManifest(clientDir);

function serve(hsts: boolean, trustProxy = 1) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  for (const h of securityHeaders({ hsts, manifest })) app.use(h);
  app.use((_req, res) => {
    res.json({ nonce: res.locals.cspNonce ?? null });
  });
  return app;
}

let servers: { close(): void }[] = [];
const urls = { on: "", off: "", untrusting: "" };

beforeAll(async () => {
  const listen = (app: express.Express) =>
    new Promise<string>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => {
        resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
      });
      servers.push(s);
    });
  urls.on = await listen(serve(true));
  urls.off = await listen(serve(false));
  urls.untrusting = await listen(serve(true, 0));
});

afterAll(() => {
  for (const s of servers) s.close();
  servers = [];
});

describe("staticHtmlFileFor", () => {
  it("maps clean paths to their prerendered file, and a query string to none", () => {
    expect(staticHtmlFileFor(manifest, "/")).toBe("index.html");
    expect(staticHtmlFileFor(manifest, "/team")).toBe("team/index.html");
    expect(staticHtmlFileFor(manifest, "/team?x=1")).toBeUndefined();
    expect(staticHtmlFileFor(manifest, "/team/index.html")).toBeUndefined();
    expect(staticHtmlFileFor(manifest, "/nowhere")).toBeUndefined();
    expect(staticHtmlFileFor(manifest, "/%E0%A4%A")).toBeUndefined();
  });
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

describe("isTokenPage", () => {
  it("knows every spelling React Router renders the two pages for, and nothing else", () => {
    for (const p of [
      "/unsubscribe",
      "/unsubscribe/",
      "/unsubscribe.data",
      "/Unsubscribe",
      "/%75nsubscribe",
      "/register-interest/confirm",
      "/register-interest/confirm/",
      "/register-interest/confirm.data",
    ]) {
      expect(isTokenPage(p), p).toBe(true);
    }
    for (const p of ["/", "/register-interest", "/unsubscribe/more", "/confirm", "/%E0%A4%A"]) {
      expect(isTokenPage(p), p).toBe(false);
    }
  });
});
