/**
 * The Content-Security-Policy of every response. Scripts run only from our own
 * origin ('self': the hashed module files in /assets) and, inline, only when
 * they carry the per-request nonce (server-rendered HTML) or match a hash from
 * the build (prerendered HTML). See docs/decisions/040-content-security-policy.md.
 */
export type CspOptions = {
  /** 'nonce-...' or 'sha256-...' source expressions for inline scripts. */
  scriptSources: readonly string[];
  /** Adds upgrade-insecure-requests: only for a request that arrived over TLS (server/security/headers.ts). */
  upgradeInsecureRequests: boolean;
};

export function buildCsp({ scriptSources, upgradeInsecureRequests }: CspOptions): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", ...scriptSources],
    ["script-src-attr", "'none'"],
    // Radix and sonner position elements with style attributes; see decision 040.
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:"],
    ["font-src", "'self'"],
    ["connect-src", "'self'"],
    ["manifest-src", "'self'"],
    ["media-src", "'none'"],
    ["worker-src", "'none'"],
    ["object-src", "'none'"],
    ["frame-src", "'none'"],
    ["frame-ancestors", "'none'"],
    ["form-action", "'self'"],
    ["base-uri", "'none'"],
  ];
  if (upgradeInsecureRequests) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}

/**
 * The staff console's policy (docs/decisions/133): nothing by default; its own scripts
 * ('self': the passkey module) and the nonced inline page script; its own stylesheet,
 * fonts and icons; fetches to itself (the passkey ceremony); forms to itself.
 */
export function buildConsoleCsp({ scriptSources, upgradeInsecureRequests }: CspOptions): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'none'"],
    ["script-src", "'self'", ...scriptSources],
    ["script-src-attr", "'none'"],
    ["style-src", "'self'"],
    ["img-src", "'self'", "data:"],
    ["font-src", "'self'"],
    ["connect-src", "'self'"],
    ["frame-ancestors", "'none'"],
    ["form-action", "'self'"],
    ["base-uri", "'none'"],
  ];
  if (upgradeInsecureRequests) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}
