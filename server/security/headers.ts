import { randomBytes } from "node:crypto";

import type { RequestHandler } from "express";
import helmet from "helmet";

import { type CspManifest, staticHtmlFileFor } from "./csp-manifest.ts";
import { buildConsoleCsp, buildCsp, nonceSource } from "./csp.ts";
import { registrationPaths } from "../../contract/registrations.ts";

export type SecurityHeadersOptions = {
  /**
   * Whether Strict-Transport-Security and upgrade-insecure-requests may be sent. Even when
   * true they go only on requests that arrived over TLS (Express's `req.secure`: directly,
   * or through a proxy that `trust proxy` trusts); plain http never gets them.
   */
  hsts: boolean;
  manifest: CspManifest;
  /**
   * The staff console's listener (docs/decisions/133): its own CSP, passkeys allowed,
   * and every answer uncached, unindexed, and its URL never sent to another origin.
   */
  console?: boolean;
};

/** Two years, with subdomains: the value the HSTS preload list asks for. */
export const HSTS_MAX_AGE = 63_072_000;
const HSTS_VALUE = `max-age=${HSTS_MAX_AGE}; includeSubDomains`;

/**
 * Powerful features the site never uses, switched off for the page and any frame.
 * Only features Chromium recognises: an unknown one logs a console error.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "encrypted-media=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "picture-in-picture=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

const tokenPages = new Set<string>([registrationPaths.confirm, registrationPaths.unsubscribe]);

/**
 * Whether a path is one of the pages our emails link to with a token in the URL, in any
 * spelling React Router would render it for (letter case, a trailing slash, percent
 * escapes, the `.data` twin).
 */
export function isTokenPage(pathname: string): boolean {
  let decoded = pathname;
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

/**
 * The token in an email link's URL is a key to someone's registration: the pages it
 * opens are never cached or indexed, and never pass the URL on as a Referer to another
 * site (docs/decisions/090). Not `no-referrer`: under it browsers send `Origin: null`
 * with the unsubscribe button's form post, which the origin check rightly refuses.
 * Set here, replacing helmet's referrer policy rather than adding a second one beside it.
 */
const tokenPageHeaders: RequestHandler = (req, res, next) => {
  if (isTokenPage(req.path)) {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Robots-Tag", "noindex");
    res.setHeader("Referrer-Policy", "same-origin");
  }
  next();
};

const consoleHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Robots-Tag", "noindex");
  res.setHeader("Referrer-Policy", "same-origin");
  next();
};

/**
 * Middleware that sets the security headers on every response, first in the
 * chain so that static files, pages, errors and /healthz all carry them.
 */
export function securityHeaders(options: SecurityHeadersOptions): RequestHandler[] {
  const base = helmet({
    contentSecurityPolicy: false,
    // Set per request below: only answers that travelled over TLS carry it.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
    xContentTypeOptions: true,
    xDnsPrefetchControl: { allow: false },
    xPermittedCrossDomainPolicies: { permittedPolicies: "none" },
    xXssProtection: true,
    originAgentCluster: true,
  });

  const policy: RequestHandler = (req, res, next) => {
    res.setHeader(
      "Permissions-Policy",
      options.console
        ? PERMISSIONS_POLICY.replace(
            "publickey-credentials-get=()",
            "publickey-credentials-get=(self)",
          )
        : PERMISSIONS_POLICY,
    );
    // A browser ignores HSTS over plain http, but WebKit obeys upgrade-insecure-requests even
    // on http://127.0.0.1 and loses every script and font (docs/decisions/115).
    const overTls = options.hsts && req.secure;
    if (overTls) res.setHeader("Strict-Transport-Security", HSTS_VALUE);
    const file =
      !options.console && (req.method === "GET" || req.method === "HEAD")
        ? staticHtmlFileFor(options.manifest, req.url)
        : undefined;
    let scriptSources: readonly string[];
    if (file !== undefined) {
      // A prerendered file: its inline scripts are fixed, so the build's hashes allow them.
      scriptSources = options.manifest.files[file] ?? [];
    } else {
      // Anything React Router renders now gets a fresh nonce (app/entry.server.tsx).
      const nonce = randomBytes(16).toString("base64");
      res.locals.cspNonce = nonce;
      scriptSources = [nonceSource(nonce)];
    }
    res.setHeader(
      "Content-Security-Policy",
      (options.console ? buildConsoleCsp : buildCsp)({
        scriptSources,
        upgradeInsecureRequests: overTls,
      }),
    );
    next();
  };

  if (options.console) return [base, policy, consoleHeaders];
  return [base, policy, tokenPageHeaders];
}
