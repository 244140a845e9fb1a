import { type Page, expect, test } from "@playwright/test";

import {
  CONSENT_KEY,
  expectExpanded,
  phoneMenuToggle,
  seedConsent,
  waitForHydration,
} from "../support/site.ts";

// The status banner, each page's heading, the footer's links, the phone menu's toggle hidden
// at desktop width, the 404 page: every-page.spec.ts. Each submenu link, the Services link
// and the header's call to action: page-hygiene.spec.ts's desktop journey; the Home link:
// csp.spec.ts. Pages answer at clean paths without a redirect: html-validity.spec.ts.

test.describe("mobile menu", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test.beforeEach(async ({ context, page }) => {
    await seedConsent(context);
    await page.goto("/");
    await waitForHydration(page);
  });

  test("one section open at a time; a link or a click outside closes it", async ({ page }) => {
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeHidden();

    await phoneMenuToggle(page).click();
    // The sections are native <details> sharing a name (decision 054).
    const about = nav.locator("summary", { hasText: "About" });
    const trt = nav.locator("summary", { hasText: "TRT" });

    await about.click();
    await expectExpanded(about, true);
    await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeVisible();

    await trt.click();
    await expectExpanded(trt, true);
    await expectExpanded(about, false);
    await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeHidden();

    await trt.click();
    await expectExpanded(trt, false);

    await about.click();
    await nav.getByRole("link", { name: "Meet the Team" }).click();
    await expect(page).toHaveURL("/team");
    await expect(nav).toBeHidden();
    await expectExpanded(phoneMenuToggle(page), false);

    await phoneMenuToggle(page).click();
    await expect(nav).toBeVisible();
    // The status banner above the header is outside the panel: a press there dismisses it.
    await page.getByRole("region", { name: "Regulatory status" }).click();
    await expect(nav).toBeHidden();
  });
});

test.describe("cookie consent", () => {
  /** The banner has gone, and the stored choice is essential plus the given categories. */
  async function expectChosen(page: Page, optional: Record<string, boolean>) {
    await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeHidden();
    const raw = await page.evaluate((key) => window.localStorage.getItem(key), CONSENT_KEY);
    const stored = raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
    expect(stored).toMatchObject({ essential: true, ...optional });
  }

  test("nothing is stored before the visitor chooses, the two choices look alike, and 'Accept All' stores every category and hides the banner for good", async ({
    page,
  }) => {
    await page.goto("/");
    // The banner is in the HTML from the start; its buttons work once React has hydrated.
    await waitForHydration(page);
    const keys = await page.evaluate(() => ({
      local: Object.keys(window.localStorage),
      session: Object.keys(window.sessionStorage),
      cookies: document.cookie,
    }));
    expect(keys).toEqual({ local: [], session: [], cookies: "" });
    const banner = page.getByRole("region", { name: "Cookies on this site" });
    await expect(banner).toBeVisible();
    const style = (el: Element) => {
      const s = getComputedStyle(el);
      return [s.backgroundColor, s.color, s.fontSize, s.fontWeight, s.borderColor].join("|");
    };
    const accept = page.getByRole("button", { name: "Accept All" });
    const essential = page.getByRole("button", { name: "Essential Only" });
    await expect(accept).toBeVisible();
    expect(await accept.evaluate(style)).toBe(await essential.evaluate(style));
    const policy = banner.getByRole("link", { name: /cookie policy/i });
    await expect(policy).toHaveAttribute("href", "/cookie-policy");
    await banner.getByRole("button", { name: "Accept All" }).click();
    await expectChosen(page, { analytics: true, functional: true, marketing: true });
    await page.reload();
    await waitForHydration(page);
    await expect(banner).toBeHidden();
  });

  test("'Essential Only' stores only essential", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Essential Only" }).click();
    await expectChosen(page, { analytics: false, functional: false, marketing: false });
  });

  test("'Manage preferences' stores any combination", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Manage preferences" }).click();
    const dialog = page.getByRole("dialog", { name: "Cookie preferences" });
    await expect(dialog.getByRole("switch", { name: "Essential" })).toBeDisabled();
    await dialog.getByRole("switch", { name: "Functional" }).click();
    await dialog.getByRole("switch", { name: "Marketing" }).click();
    await dialog.getByRole("button", { name: "Save preferences" }).click();
    await expect(dialog).toBeHidden();
    await expectChosen(page, { analytics: false, functional: true, marketing: true });

    // The footer link reopens the dialog with the stored choice.
    await page.getByRole("button", { name: "Cookie settings" }).click();
    // The switches are native checkboxes with role="switch" (decision 105).
    await expect(page.getByRole("switch", { name: "Functional" })).toBeChecked();
    await expect(page.getByRole("switch", { name: "Analytics" })).not.toBeChecked();
  });

  test("a corrupted stored value is logged and shows the banner again", async ({ page }) => {
    await page.addInitScript((key) => window.localStorage.setItem(key, "{not json"), CONSENT_KEY);
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeVisible();
    // The page script in <head> reads the record before the first paint and logs the
    // unreadable value (decisions 058 and 105).
    await expect.poll(() => errors.some((e) => e.includes("cookie consent"))).toBe(true);
  });
});

test("answers the health check", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test.describe("toasts", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("appear bottom-right, at most three at once, and Alt+T reaches them", async ({
    page,
    context,
  }) => {
    await seedConsent(context);
    await page.goto("/register-interest");
    await waitForHydration(page);
    // Four empty submissions in one go: clicked one by one, on a slow machine the first
    // toast could time out (5 s) before the fourth appears.
    await page.getByRole("button", { name: "Register Interest" }).evaluate((button) => {
      for (let i = 0; i < 4; i++) (button as HTMLButtonElement).click();
    });

    const toaster = page.locator("[data-sonner-toaster]");
    await expect(toaster).toHaveAttribute("data-x-position", "right");
    await expect(toaster).toHaveAttribute("data-y-position", "bottom");
    const toasts = page.locator("[data-sonner-toast]");
    await expect(toasts.first()).toContainText("Please fill in all required fields");
    await expect(toasts).toHaveCount(4);
    await expect(page.locator('[data-sonner-toast][data-visible="true"]')).toHaveCount(3);

    const box = await toasts.first().boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeGreaterThan(1280 * 0.75);
    expect(box!.y).toBeGreaterThan(800 * 0.6);

    await page.keyboard.press("Alt+KeyT");
    await expect(toaster).toBeFocused();
  });
});
