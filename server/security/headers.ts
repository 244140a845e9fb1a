import { randomBytes } from "node:crypto";

import type { RequestHandler } from "express";
import helmet from "helmet";

import { type CspManifest, staticHtmlFileFor } from "./csp-manifest.ts";
import { buildCsp, nonceSource } from "./csp.ts";

export type SecurityHeadersOptions = {
  /** Strict-Transport-Security and upgrade-insecure-requests; off for plain-http local use. */
  hsts: boolean;
  manifest: CspManifest;
};

/** Two years, with subdomains: the value the HSTS preload list asks for. */
export const HSTS_MAX_AGE = 63_072_000;

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

/**
 * Middleware that sets the security headers on every response, first in the
 * chain so that static files, pages, errors and /healthz all carry them.
 */
export function securityHeaders(options: SecurityHeadersOptions): RequestHandler[] {
  const base = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: options.hsts
      ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true, preload: false }
      : false,
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
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    const file =
      req.method === "GET" || req.method === "HEAD"
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
      buildCsp({ scriptSources, upgradeInsecureRequests: options.hsts }),
    );
    next();
  };

  return [base, policy];
}
