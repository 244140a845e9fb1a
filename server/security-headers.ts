import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import type { RequestHandler } from "express";
import helmet from "helmet";

import { registrationPaths } from "../contract/registrations.ts";

/* Script sources: the build's hashes for prerendered pages, else a nonce (decision 040). */

const SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The HTML spec's 16 JavaScript MIME type essences, which make a classic script. */
const JS_TYPE =
  /^(?:(?:application|text)\/(?:x-)?(?:ecma|java)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript))$/;

export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1]?.toLowerCase();
    if (!name || attributes.has(name)) continue;
    attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

/** Classic scripts, module scripts and import maps; data blocks such as ld+json never run. */
function isExecutable(attributes: Map<string, string>): boolean {
  if (attributes.has("src")) return false;
  const type = attributes.get("type");
  if (type === undefined || type.trim() === "") {
    const language = attributes.get("language");
    return language === undefined || language === "" || JS_TYPE.test(`text/${language}`);
  }
  const essence = type.trim().toLowerCase();
  return essence === "module" || essence === "importmap" || JS_TYPE.test(essence);
}

/** What the browser hashes: the HTML parser turns CRLF and lone CR into LF first. */
export function cspHash(text: string): string {
  const digest = createHash("sha256").update(text.replace(/\r\n?/g, "\n"), "utf8").digest("base64");
  return `'sha256-${digest}'`;
}

/** Only our own prerendered documents: a script's text runs raw up to the first "</script". */
export function scanInlineScripts(html: string) {
  const hashes: string[] = [];
  let dataBlocks = 0;
  for (const m of html.matchAll(SCRIPT)) {
    const attributes = parseAttributes(m[1] ?? "");
    if (attributes.has("src")) continue;
    if (!isExecutable(attributes)) {
      dataBlocks += 1;
      continue;
    }
    const hash = cspHash(m[2] ?? "");
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  // Event-handler attributes (onclick=...): a hash cannot allow them, so the build fails.
  const inlineHandlers = [...html.matchAll(/<[a-z][^>]*\s(on[a-z]+)\s*=/gi)].map((m) => m[1] ?? "");
  return { hashes, dataBlocks, inlineHandlers };
}

/** Keyed by the path under build/client; written beside it, never inside, so never served. */
type CspManifest = { version: 1; files: Record<string, string[]> };

export const CSP_MANIFEST_NAME = "csp-manifest.json";

export function buildCspManifest(clientDir: string) {
  const files: Record<string, string[]> = {};
  const problems: string[] = [];
  let dataBlocks = 0;
  const names = (readdirSync(clientDir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".html"))
    .sort();
  for (const name of names) {
    const scan = scanInlineScripts(readFileSync(path.join(clientDir, name), "utf8"));
    const key = name.split(path.sep).join("/");
    files[key] = scan.hashes;
    dataBlocks += scan.dataBlocks;
    for (const handler of scan.inlineHandlers) problems.push(`${key}: ${handler}`);
  }
  return { manifest: { version: 1, files } satisfies CspManifest, dataBlocks, problems };
}

// A build without the post-build step has no manifest: the hashes are computed at start-up.
export function loadCspManifest(buildDir: string) {
  const file = path.join(buildDir, CSP_MANIFEST_NAME);
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as CspManifest;
    if (parsed.version !== 1 || typeof parsed.files !== "object") {
      throw new Error(`${file} is not a CSP manifest of version 1: rebuild with npm run build`);
    }
    return { manifest: parsed, source: "file" as const };
  }
  const { manifest } = buildCspManifest(path.join(buildDir, "client"));
  return { manifest, source: "computed" as const };
}

/** A clean path with a query string is rendered by React Router, so it has no file. */
export function staticHtmlFileFor(manifest: CspManifest, url: string): string | undefined {
  const [rawPath = "/", query] = url.split("?", 2);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  const html = pathname.endsWith(".html");
  // Directory index files are only served through their clean path.
  if (pathname.endsWith("/index.html") || (!html && query !== undefined)) return undefined;
  const bare = pathname.replace(/^\/+/, "");
  const key = html ? bare : pathname === "/" ? "index.html" : `${bare}/index.html`;
  return Object.hasOwn(manifest.files, key) ? key : undefined;
}

type ConsoleOptions = {
  /** The staff console (decision 133): nothing by default, no inline styles, no manifest. */
  console?: boolean;
  /** The announcement preview's style attributes: its iframe srcdoc inherits this (136). */
  consoleStyles?: readonly string[];
};

export function buildCsp({
  scriptSources,
  upgradeInsecureRequests,
  console = false,
  consoleStyles = [],
}: ConsoleOptions & {
  scriptSources: readonly string[];
  upgradeInsecureRequests: boolean;
}): string {
  const styleHashes = consoleStyles.map(cspHash);
  const none = (name: string): [string, string] => [name, "'none'"];
  const directives: [string, ...string[]][] = [
    ["default-src", console ? "'none'" : "'self'"],
    ["script-src", "'self'", ...scriptSources],
    none("script-src-attr"),
    // sonner positions elements with style attributes (decision 040).
    console
      ? [
          "style-src",
          "'self'",
          ...(styleHashes.length > 0 ? ["'unsafe-hashes'", ...styleHashes] : []),
        ]
      : ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:"],
    ["font-src", "'self'"],
    ["connect-src", "'self'"],
    ...(console
      ? []
      : [
          ["manifest-src", "'self'"] as [string, string],
          ...["media-src", "worker-src", "object-src", "frame-src"].map(none),
        ]),
    none("frame-ancestors"),
    ["form-action", "'self'"],
    none("base-uri"),
  ];
  if (upgradeInsecureRequests) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** Two years, with subdomains: the value the HSTS preload list asks for. */
const HSTS = "max-age=63072000; includeSubDomains";

/** Off for the page and any frame; only features Chromium knows, or it logs an error. */
const PERMISSIONS_POLICY = `accelerometer autoplay browsing-topics camera display-capture
  encrypted-media geolocation gyroscope hid magnetometer microphone midi payment
  picture-in-picture publickey-credentials-get screen-wake-lock serial usb xr-spatial-tracking`
  .split(/\s+/)
  .map((feature) => `${feature}=()`)
  .join(", ");

const tokenPages = new Set<string>([registrationPaths.confirm, registrationPaths.unsubscribe]);

/** An email link's page with its token, in any spelling React Router would render. */
export function isTokenPage(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false; // React Router cannot match a malformed escape either
  }
  const bare = decoded
    .toLowerCase()
    .replace(/\.data$/, "")
    .replace(/\/+$/, "");
  return tokenPages.has(bare);
}

/** First in the chain, so that static files, pages, errors and /healthz all carry them. */
export function securityHeaders(
  options: ConsoleOptions & { hsts: boolean; manifest: CspManifest },
): RequestHandler[] {
  // Otherwise helmet's defaults: same-origin COOP and CORP, nosniff, no DNS prefetch.
  const base = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
  });

  const permissions = options.console
    ? PERMISSIONS_POLICY.replace("publickey-credentials-get=()", "publickey-credentials-get=(self)")
    : PERMISSIONS_POLICY;

  const policy: RequestHandler = (req, res, next) => {
    res.setHeader("Permissions-Policy", permissions);
    // A browser ignores HSTS over plain http, but WebKit obeys upgrade-insecure-requests
    // even on http://127.0.0.1 and loses every script and font (decision 115).
    const overTls = options.hsts && req.secure;
    if (overTls) res.setHeader("Strict-Transport-Security", HSTS);
    const file =
      !options.console && (req.method === "GET" || req.method === "HEAD")
        ? staticHtmlFileFor(options.manifest, req.url)
        : undefined;
    let scriptSources: readonly string[];
    if (file !== undefined) {
      scriptSources = options.manifest.files[file] ?? [];
    } else {
      const nonce = randomBytes(16).toString("base64");
      res.locals.cspNonce = nonce;
      scriptSources = [`'nonce-${nonce}'`];
    }
    res.setHeader(
      "Content-Security-Policy",
      buildCsp({ ...options, scriptSources, upgradeInsecureRequests: overTls }),
    );
    // A token in the URL is a key to a registration (decision 090). Not `no-referrer`: the
    // confirm button would then post `Origin: null`, which the origin check refuses.
    if (options.console || isTokenPage(req.path)) {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("X-Robots-Tag", "noindex");
      res.setHeader("Referrer-Policy", "same-origin");
    }
    next();
  };

  return [base, policy];
}
