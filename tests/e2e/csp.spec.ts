import { expect, test } from "@playwright/test";

import { seedConsent, waitForHydration, watchCsp } from "../support/site.ts";

/**
 * The Content-Security-Policy must never block our own scripts: every prerendered page loads
 * and hydrates under its script hashes with no violation (every-page.spec.ts; every link is a
 * document load, decision 126), and a page rendered per request under its nonce, its links
 * still working. An injected script must be blocked.
 */

test.beforeEach(({ context }) => seedConsent(context));

for (const path of ["/this-page-does-not-exist", "/pricing?treatment=nebido"]) {
  test(`the server-rendered ${path} hydrates under its nonce with no violation`, async ({
    page,
    request,
  }) => {
    // Every inline script in the raw HTML carries the nonce of its own response.
    const raw = await request.get(path);
    const nonce = /'nonce-([^']+)'/.exec(raw.headers()["content-security-policy"] ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await raw.text();
    const inline = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) {
      if (/type="application\/ld\+json"/.test(attrs)) continue;
      expect(attrs).toContain(`nonce="${nonce}"`);
    }
    const again = await request.get(path);
    expect(again.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);

    const watch = await watchCsp(page);
    await page.goto(path);
    await waitForHydration(page);
    expect(await watch.violations()).toEqual([]);
    // Its links still work: a document load home.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Home" })
      .click();
    await expect(page).toHaveURL("/");
    expect(await watch.violations()).toEqual([]);
    expect(watch.consoleProblems).toEqual([]);
  });
}

test("an injected inline script is blocked and reported; a JSON data block is not", async ({
  page,
}) => {
  const watch = await watchCsp(page);
  await page.goto("/register-interest");
  await waitForHydration(page);
  await page.evaluate(() => {
    const data = document.createElement("script");
    data.type = "application/ld+json";
    data.textContent = '{"@context":"https://schema.org","@type":"MedicalClinic"}';
    document.head.append(data);
  });
  expect(await watch.violations()).toEqual([]);
  await page.evaluate(() => {
    const evil = document.createElement("script");
    evil.textContent = "document.title = 'pwned';";
    document.body.append(evil);
    const handler = document.createElement("img");
    handler.setAttribute("src", "data:image/gif;base64,R0lGODlhAQABAAAAACw=");
    handler.setAttribute("onload", "document.title = 'pwned';");
    document.body.append(handler);
  });
  await expect
    .poll(async () => (await watch.violations()).map((v) => v.directive).sort())
    .toEqual(["script-src-attr", "script-src-elem"]);
  expect(await page.title()).not.toBe("pwned");
});
