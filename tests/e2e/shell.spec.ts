import { type Page, expect, test } from "@playwright/test";

import {
  CONSENT_KEY,
  desktopMenuToggle,
  expectExpanded,
  phoneMenuToggle,
  seedConsent,
  waitForHydration,
} from "../support/site.ts";

// The status banner above the header and each page's heading: every-page.spec.ts.

test.describe("desktop navigation", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test.beforeEach(async ({ context }) => {
    await seedConsent(context);
  });

  const submenus = [
    {
      trigger: "About",
      links: [
        { name: "Our Approach", path: "/our-approach" },
        { name: "Meet the Team", path: "/team" },
      ],
    },
    {
      trigger: "TRT",
      links: [
        { name: "Overview", path: "/trt-overview" },
        { name: "FAQ", path: "/faq" },
      ],
    },
  ];

  for (const { trigger, links } of submenus) {
    for (const link of links) {
      test(`${trigger} > ${link.name} goes to ${link.path}`, async ({ page }) => {
        await page.goto("/");
        await waitForHydration(page);
        const nav = page.getByRole("navigation", { name: "Main" });
        await desktopMenuToggle(page, trigger).click();
        await nav.getByRole("link", { name: link.name }).click();
        await expect(page).toHaveURL(link.path);
      });
    }
  }

  test("top-level links and the call to action reach their pages", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Services" }).click();
    await expect(page).toHaveURL("/services");
    await nav.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL("/");
    await page.locator("header").getByRole("link", { name: "Register Interest" }).click();
    await expect(page).toHaveURL("/register-interest");
  });

  test("the mobile menu toggle is hidden from the lg breakpoint", async ({ page }) => {
    await page.goto("/");
    await expect(phoneMenuToggle(page)).toBeHidden();
  });
});

test.describe("mobile menu", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test.beforeEach(async ({ context }) => {
    await seedConsent(context);
  });

  test("keeps one section open at a time and closes on navigation", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    await phoneMenuToggle(page).click();
    const nav = page.getByRole("navigation", { name: "Main" });
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
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expectExpanded(phoneMenuToggle(page), false);
  });

  test("a click outside the open menu closes it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await phoneMenuToggle(page).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    // The status banner above the header is outside the panel: a press there dismisses it.
    await page.getByRole("region", { name: "Regulatory status" }).click();
    await expect(nav).toBeHidden();
  });
});

test.describe("footer", () => {
  test("links every page the spec names, with no social link to a made-up address", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    const expected: [string, string][] = [
      ["TRT Treatment Plans", "/treatment-options"],
      ["Meet the Team", "/team"],
      ["Privacy Policy", "/privacy-policy"],
      ["Terms of Service", "/terms-of-service"],
      ["Cookie Policy", "/cookie-policy"],
      ["Shipping Policy", "/shipping-policy"],
      ["Refund Policy", "/refund-policy"],
      ["Ongoing Monitoring", "/our-approach#ongoing-care"],
    ];
    for (const [name, href] of expected) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer.getByText("Instagram")).toBeVisible();
    await expect(footer.getByRole("link", { name: "Instagram" })).toHaveCount(0);
    await expect(footer).toContainText("company number");
    await expect(footer).toContainText("Care Quality Commission");
  });
});

test.describe("cookie consent", () => {
  async function stored(page: Page) {
    const raw = await page.evaluate((key) => window.localStorage.getItem(key), CONSENT_KEY);
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  }

  test("'Accept All' stores every category and hides the banner for good", async ({ page }) => {
    await page.goto("/");
    // The banner is in the HTML from the start; its buttons work once React has hydrated.
    await waitForHydration(page);
    const banner = page.getByRole("region", { name: "Cookies on this site" });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole("link", { name: /cookie policy/i })).toHaveAttribute(
      "href",
      "/cookie-policy",
    );
    await banner.getByRole("button", { name: "Accept All" }).click();
    await expect(banner).toBeHidden();
    expect(await stored(page)).toMatchObject({
      essential: true,
      analytics: true,
      functional: true,
      marketing: true,
    });
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeHidden();
  });

  test("'Essential Only' stores only essential", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Essential Only" }).click();
    await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeHidden();
    expect(await stored(page)).toMatchObject({
      essential: true,
      analytics: false,
      functional: false,
      marketing: false,
    });
  });

  test("'Accept All' and 'Essential Only' have equal prominence", async ({ page }) => {
    await page.goto("/");
    const accept = page.getByRole("button", { name: "Accept All" });
    const essential = page.getByRole("button", { name: "Essential Only" });
    await expect(accept).toBeVisible();
    const style = (el: Element) => {
      const s = getComputedStyle(el);
      return [s.backgroundColor, s.color, s.fontSize, s.fontWeight, s.borderColor].join("|");
    };
    expect(await accept.evaluate(style)).toBe(await essential.evaluate(style));
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
    await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeHidden();
    expect(await stored(page)).toMatchObject({
      essential: true,
      analytics: false,
      functional: true,
      marketing: true,
    });

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

  test("nothing is stored before the visitor chooses", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const keys = await page.evaluate(() => ({
      local: Object.keys(window.localStorage),
      session: Object.keys(window.sessionStorage),
      cookies: document.cookie,
    }));
    expect(keys).toEqual({ local: [], session: [], cookies: "" });
  });
});

test.describe("404 page", () => {
  test("answers 404, shows the page and logs the attempted path", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Oops! Page not found");
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    await expect.poll(() => errors.some((e) => e.includes("/no-such-page"))).toBe(true);
  });
});

test.describe("server", () => {
  test("serves prerendered pages at clean paths without redirecting", async ({ request }) => {
    const response = await request.get("/team", { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain("Meet the Team");
  });

  test("answers the health check", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
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
