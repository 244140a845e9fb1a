import { expect, test } from "@playwright/test";

import { installInspector } from "../support/focus.ts";
import { openPage, seedConsent, viewports, waitForHydration } from "../support/site.ts";

/**
 * Focus, beyond what every-page.spec.ts measures on every page's first visit: the measure
 * sees a control the consent banner covers, and after following a link focus starts at the
 * new page's top.
 */

test("the check sees a control the banner covers (it can fail)", async ({ page }) => {
  await page.setViewportSize(viewports.mobile);
  await openPage(page, "/");
  await page.evaluate(installInspector);
  const banner = (await page.locator("#consent-banner").boundingBox())!;
  // Put a footer link right under the banner, without the browser's scroll into view.
  const hidden = await page.evaluate((bannerTop) => {
    const link = document.querySelector<HTMLElement>("footer a")!;
    window.scrollBy(0, link.getBoundingClientRect().top - bannerTop - 8);
    link.focus({ preventScroll: true });
    return window.__inspectFocus?.().then((stop) => stop?.hidden ?? null);
  }, banner.y);
  expect(hidden).toContain("consent-banner");
});

// The skip link, a same-page link, moves focus to <main>: keyboard.spec.ts.
test("a query change leaves focus where it was; a header link loads the new page as a document, focus at its top", async ({
  page,
  context,
}) => {
  await seedConsent(context);
  await page.goto("/pricing");
  await waitForHydration(page);
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  const option = page.getByRole("radio").nth(1);
  await option.focus();
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/\?/);
  await expect(option).toBeFocused();

  // Every page is a document load (docs/decisions/126), even from a page with an island:
  // the browser puts focus at the top of the new page, and the first Tab is the skip link.
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Services", exact: true }).focus();
  await Promise.all([page.waitForURL("/services"), page.keyboard.press("Enter")]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Services");
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
});
