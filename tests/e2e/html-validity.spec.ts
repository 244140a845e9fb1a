import { expect, test } from "@playwright/test";

import { confirmPath, registerSomeone, unsubscribePath } from "../support/email-links.ts";
import { nuErrors } from "../support/nu.ts";
import { allPages, hydratedPaths, notFoundPath } from "../support/site.ts";

/**
 * One request for each page of the route table and the 404 page, as the server sends it
 * (no redirect), feeds every check of its raw HTML: the W3C Nu HTML checker (vnu-jar, run
 * on Java 17; one JVM run checks them all), a type on every <button>, modules preloaded once
 * where a page hydrates and none elsewhere, titles and descriptions unique, and the consent
 * banner in the HTML from the start (docs/decisions/058).
 */
test("every page's served HTML passes the Nu HTML checker and the site's own checks", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const served = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const path of allPages) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect.soft(response.status(), path).toBe(path === notFoundPath ? 404 : 200);
    expect.soft(response.headers()["content-type"], path).toContain("text/html");
    const html = await response.text();
    served.set(path, html);

    const buttons = html.match(/<button\b[^>]*>/g) ?? [];
    const untyped = buttons.filter((tag) => !/\stype="(button|submit|reset)"/.test(tag));
    expect.soft(untyped, `buttons without a type in ${path}`).toEqual([]);

    const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)].map(
      (m) => /\shref="([^"]+)"/.exec(m[0])?.[1] ?? "",
    );
    if (hydratedPaths.includes(path)) {
      expect.soft(preloads.length, `${path} preloads its modules`).toBeGreaterThan(0);
      const repeated = preloads.filter((href, i) => preloads.indexOf(href) !== i);
      expect.soft(repeated, `modules preloaded more than once on ${path}`).toEqual([]);
    } else {
      // A content page ships no module at all (decision 105).
      expect.soft(preloads, `${path} preloads no module`).toEqual([]);
      expect.soft(html, `${path} has no module script`).not.toContain('type="module"');
    }

    expect.soft(html, `${path} has the consent banner`).toContain('id="consent-banner"');
    expect.soft(html, `${path} has the consent banner's buttons`).toContain("Accept All");

    if (path === notFoundPath) continue;
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
    for (const value of [title, description]) {
      expect
        .soft(seen.get(value), `"${value}" on ${path} is also on ${seen.get(value)}`)
        .toBeUndefined();
      seen.set(value, path);
    }
  }
  expect(await nuErrors(served)).toEqual([]);
});

test("the email-link pages' HTML has no Nu HTML checker error", async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const someone = await registerSomeone(baseURL ?? "", "vnu");
  const confirm = someone.confirmToken();
  const unsubscribe = someone.unsubscribeToken();
  const pages = new Map<string, string>();
  // The two posts send the token in the form body, as the pages' hidden fields do.
  for (const [label, url, status, form] of [
    ["/confirm-ask", confirmPath(confirm), 200],
    ["/confirm-refused", confirmPath("not-a-token"), 400],
    ["/unsubscribe-button", unsubscribePath(unsubscribe), 200],
    ["/unsubscribe-done", "/unsubscribe", 200, { token: unsubscribe }],
    ["/confirm-confirmed", confirmPath(confirm), 200, { token: confirm }],
  ] as const) {
    const response = form ? await request.post(url, { form }) : await request.get(url);
    expect(response.status(), label).toBe(status);
    pages.set(label, await response.text());
  }
  expect(await nuErrors(pages)).toEqual([]);
});
