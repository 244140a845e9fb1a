/** The public origin for canonical URLs and the sitemap, from SITE_URL at build time. */
export function siteUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.SITE_URL ?? "http://localhost:3000";
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`SITE_URL must be an http(s) origin, got "${raw}"`);
  }
  return url.origin;
}
