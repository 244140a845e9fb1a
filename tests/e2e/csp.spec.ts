import { type Page, expect, test } from "@playwright/test";

import { seedConsent, staticRoutes, waitForHydration } from "./support/site.ts";

/**
 * The Content-Security-Policy must never block our own scripts: every page loads,
 * hydrates and navigates with no violation, whether it was prerendered (script
 * hashes) or rendered per request (nonce). An injected script must be blocked.
 */

type Violation = { directive: string; blocked: string; sample: string };

declare global {
  interface Window {
    __cspViolations: Violation[];
  }
}

async function watchCsp(page: Page) {
  const consoleProblems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/content security policy|refused to|permissions-policy|permissions policy/i.test(text)) {
      consoleProblems.push(`${message.type()}: ${text}`);
    }
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      });
    });
  });
  return {
    consoleProblems,
    violations: () => page.evaluate(() => window.__cspViolations),
  };
}

test.beforeEach(async ({ context }) => {
  await seedConsent(context);
});

test("every prerendered page hydrates with no CSP violation", async ({ page }) => {
  const watch = await watchCsp(page);
  for (const { path, heading } of staticRoutes) {
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"], path).toMatch(/'sha256-/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    expect(await watch.violations(), path).toEqual([]);
  }
  expect(watch.consoleProblems).toEqual([]);
});

test("client-side navigation loads route modules and data with no CSP violation", async ({
  page,
}) => {
  const watch = await watchCsp(page);
  // Content pages hydrate nothing (decision 105): their links are document loads. A
  // hydrated page (the registration form) navigates client-side from then on.
  await page.goto("/register-interest");
  await waitForHydration(page);
  const header = page.locator("header");
  const steps: [string, string][] = [
    ["Services", "/services"],
    ["Home", "/"],
  ];
  for (const [name, path] of steps) {
    await header.getByRole("link", { name, exact: true }).first().click();
    await expect(page).toHaveURL(path);
    expect(await watch.violations(), path).toEqual([]);
  }
  // The footer reaches pages whose modules were not preloaded on the home page.
  const footer = page.getByRole("contentinfo");
  const footerSteps: [string, string][] = [
    ["Pricing", "/pricing"],
    ["Privacy Policy", "/privacy-policy"],
    ["Refund Policy", "/refund-policy"],
  ];
  for (const [name, path] of footerSteps) {
    await footer.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  // Same document throughout: these were client-side navigations.
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe("true");
  expect(await watch.violations()).toEqual([]);
  expect(watch.consoleProblems).toEqual([]);
});

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
    // Hydrated handlers work: client-side navigation home.
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
