import routes from "./routes.ts";
import { registrationPaths } from "../contract/registrations.ts";

/**
 * Pages that need the request itself (the token of an email's link): rendered on each
 * request, never prerendered, and left out of the sitemap (docs/decisions/090).
 */
export const renderedOnRequest: readonly string[] = [
  registrationPaths.confirm,
  registrationPaths.unsubscribe,
];

/** The staff console: its own listener, rendered on each request (docs/decisions/133). */
export const consolePath = "/console";

/** Every path of the route table without a dynamic segment: "/" and "/team" ... */
export const staticRoutePaths: readonly string[] = routes
  .filter((r) => r.index || (r.path !== undefined && !/[*:]/.test(r.path)))
  .map((r) => (r.index ? "/" : `/${r.path ?? ""}`));

/**
 * The one list of pages built ahead of time: prerendered by react-router.config.ts and
 * checked page by page by the quality specs (tests/support/site.ts).
 */
export const prerenderedPaths: readonly string[] = staticRoutePaths.filter(
  (path) => !renderedOnRequest.includes(path) && path !== consolePath,
);

/** Prerendered, but only reached after an action: not for search engines (robots noindex). */
export const unlisted: readonly string[] = [registrationPaths.thankYou];

/** The pages listed in sitemap.xml by scripts/postbuild.ts. */
export const sitemapPaths: readonly string[] = prerenderedPaths.filter(
  (path) => !unlisted.includes(path),
);
