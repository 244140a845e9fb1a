import { expect, test } from "@playwright/test";

import { seedConsent, viewports, waitForHydration } from "../support/site.ts";

/**
 * The consent banner on a first visit: small on a phone, early in the tab order, hidden
 * before the first paint when a choice is stored (by the inline script alone), and out of
 * the way with JavaScript off (docs/decisions/058). In every page's served HTML:
 * html-validity.spec.ts.
 */

const bannerName = "Cookies on this site";

test.describe("on a 390×844 phone", () => {
  test.use({ viewport: viewports.mobile });

  test("takes at most a fifth of the screen, and the page reserves its height", async ({
    page,
  }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    const banner = page.getByRole("region", { name: bannerName });
    await expect(banner).toBeVisible();
    const box = (await banner.boundingBox())!;
    console.log(`consent banner at 390×844: ${box.height.toFixed(1)} px`);
    expect(box.height).toBeLessThanOrEqual(844 * 0.2);
    expect(box.y + box.height).toBeCloseTo(844, 0);
    const reserved = await page.evaluate(() => ({
      padding: parseFloat(getComputedStyle(document.body).paddingBottom),
      scroll: parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom),
    }));
    expect(reserved.padding).toBeCloseTo(box.height, 0);
    expect(reserved.scroll).toBeCloseTo(box.height, 0);
    // At the very end of the page the footer's last line clears the banner.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const footer = (await page.locator("footer").boundingBox())!;
    expect(footer.y + footer.height).toBeLessThanOrEqual(box.y + 1);
  });

  test("comes right after the skip link in the tab order", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
    await page.keyboard.press("Tab");
    const banner = page.getByRole("region", { name: bannerName });
    expect(await banner.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  });
});

test("with a stored choice, the inline script hides it before any module runs", async ({
  page,
  context,
}) => {
  await seedConsent(context);
  // No module script at all: only the inline script can decide.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-consent", "stored");
  await expect(page.locator("#consent-banner")).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe("0px");
});

test("with no stored choice it shows from the first paint, before hydration", async ({ page }) => {
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-consent", "ask");
  await expect(page.getByRole("region", { name: bannerName })).toBeVisible();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("it is hidden and reserves nothing, since nothing optional can run", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator("#consent-banner")).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe("0px");
  });
});

test("an expired choice shows the banner again, and choosing releases the reserved space", async ({
  page,
  context,
}) => {
  await context.addInitScript(() => {
    const decidedAt = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000).toISOString();
    window.localStorage.setItem(
      "meridian-clinic.cookie-consent",
      JSON.stringify({
        version: 1,
        essential: true,
        analytics: false,
        functional: false,
        marketing: false,
        decidedAt,
      }),
    );
  });
  await page.goto("/");
  await waitForHydration(page);
  const banner = page.getByRole("region", { name: bannerName });
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "Essential Only" }).click();
  await expect(banner).toBeHidden();
  await expect(page.locator("html")).toHaveAttribute("data-consent", "stored");
  expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe("0px");
});
