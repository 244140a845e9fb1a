import routes from "./routes.ts";
import { registrationPaths } from "../contract/registrations.ts";

/** The email links' pages need the request's token (decision 090). */
export const renderedOnRequest: readonly string[] = [
  registrationPaths.confirm,
  registrationPaths.unsubscribe,
];

/** Its own listener, rendered on each request (decision 133). */
export const consolePath = "/console";

export const staticRoutePaths: readonly string[] = routes
  .filter((r) => r.index || (r.path !== undefined && !/[*:]/.test(r.path)))
  .map((r) => (r.index ? "/" : `/${r.path ?? ""}`));

/** Prerendered by react-router.config.ts and checked page by page by tests/support/site.ts. */
export const prerenderedPaths: readonly string[] = staticRoutePaths.filter(
  (path) => !renderedOnRequest.includes(path) && path !== consolePath,
);

/** Reached only after an action: robots noindex. */
export const unlisted: readonly string[] = [registrationPaths.thankYou];

export const sitemapPaths: readonly string[] = prerenderedPaths.filter(
  (path) => !unlisted.includes(path),
);
