/**
 * The first tap on a slow phone (issue 22, decision 105): 562 ms round trip, about
 * 1.6 Mbps down (200,000 bytes/s) and 0.77 Mbps up, the CPU four times slower, through
 * Chrome DevTools Protocol. On every prerendered page the test taps "Accept All" (or
 * "Essential Only", or the phone menu's toggle) the moment it is visible, once, and the
 * tap must take effect: before this design the banner's buttons did nothing until React had
 * hydrated, seconds later. After the page has finished loading (and hydrating, where it
 * hydrates) the state must still hold, so React never undoes what the page script did.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

import {
  CONSENT_KEY,
  seedConsent,
  staticPaths,
  viewports,
  waitForHydration,
  phoneMenuToggle,
} from "../support/site.ts";

test.use({ viewport: viewports.mobile, hasTouch: true });
// Each page is loaded over the throttled link, in parallel workers: one load per case.
test.describe.configure({ mode: "parallel" });

/** Loads the path over the slow phone's link and taps the target once, the moment it shows. */
async function firstTapOnSlowPhone(page: Page, path: string, target: Locator) {
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 562,
    downloadThroughput: 200_000,
    uploadThroughput: 96_000,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(path, { waitUntil: "commit" });
  await target.waitFor({ state: "visible", timeout: 30_000 });
  await target.tap({ noWaitAfter: true });
}

const choices = [
  { button: "Accept All", analytics: true },
  { button: "Essential Only", analytics: false },
] as const;

for (const path of staticPaths) {
  for (const { button, analytics } of choices) {
    test(`${path}: one tap on "${button}" as soon as it shows is kept`, async ({ page }) => {
      const banner = page.locator("#consent-banner");
      await firstTapOnSlowPhone(page, path, banner.getByRole("button", { name: button }));
      await expect(banner).toBeHidden();
      const stored = await page.evaluate((key) => window.localStorage.getItem(key), CONSENT_KEY);
      expect(JSON.parse(stored ?? "null")).toMatchObject({
        version: 1,
        essential: true,
        analytics,
      });
      await waitForHydration(page);
      await expect(banner).toBeHidden();
      await expect(page.locator("html")).toHaveAttribute("data-consent", "stored");
    });
  }

  test(`${path}: one tap on the phone menu's toggle as soon as it shows opens it`, async ({
    page,
    context,
  }) => {
    await seedConsent(context);
    const toggle = phoneMenuToggle(page);
    await firstTapOnSlowPhone(page, path, toggle);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    await waitForHydration(page);
    await expect(nav).toBeVisible();
    await expect(toggle).toHaveAccessibleName("Close menu");
  });
}
