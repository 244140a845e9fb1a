import { describe, expect, it } from "vitest";

import {
  consolePath,
  prerenderedPaths,
  renderedOnRequest,
  sitemapPaths,
  staticRoutePaths,
} from "./prerendered-paths.ts";
import { registrationPaths } from "../contract/registrations.ts";

describe("the pages built ahead of time", () => {
  it("are the route table's static paths, without the email-link pages", () => {
    expect(prerenderedPaths).toContain("/");
    expect(prerenderedPaths).toContain("/register-interest");
    expect(prerenderedPaths).not.toContain(registrationPaths.confirm);
    expect(prerenderedPaths).not.toContain(registrationPaths.unsubscribe);
    expect(prerenderedPaths.length).toBe(staticRoutePaths.length - renderedOnRequest.length - 1);
    expect(staticRoutePaths).toContain(consolePath);
    expect(prerenderedPaths.some((p) => p.startsWith(consolePath))).toBe(false);
    expect(prerenderedPaths.every((p) => !/[*:]/.test(p))).toBe(true);
  });

  it("leave out only pages the route table has, at the paths the emails link to", () => {
    // The emails' links (server/shared/links.ts) and the route table must agree.
    for (const path of [registrationPaths.confirm, registrationPaths.unsubscribe]) {
      expect(staticRoutePaths).toContain(path);
      expect(renderedOnRequest).toContain(path);
    }
  });

  it("prerender the thank-you page the form redirects to, and keep it out of the sitemap", () => {
    expect(staticRoutePaths).toContain(registrationPaths.thankYou);
    expect(prerenderedPaths).toContain(registrationPaths.thankYou);
    expect(sitemapPaths).not.toContain(registrationPaths.thankYou);
    expect(sitemapPaths).toEqual(prerenderedPaths.filter((p) => p !== registrationPaths.thankYou));
  });
});
