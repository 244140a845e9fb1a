/**
 * The site used with a keyboard alone. Every Tab along the way must land somewhere new
 * and show a visible focus indicator (tabTo checks both), and Escape must close what
 * Enter opened.
 */
import { expect, test } from "@playwright/test";

import {
  describeFocus,
  desktopMenuToggle,
  expectExpanded,
  expectVisibleFocus,
  openPage,
  phoneMenuToggle,
  seedConsent,
  tabTo,
  viewports,
} from "../support/site.ts";

test.describe("with a stored cookie choice", () => {
  test.beforeEach(({ context }) => seedConsent(context));

  test("the skip link is the first stop and moves focus to the main content", async ({ page }) => {
    await openPage(page, "/faq");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await expectVisibleFocus(page);

    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();
    // The next Tab continues inside the main content, not back in the header.
    await page.keyboard.press("Tab");
    const inMain = await page.locator("main").evaluate((m) => m.contains(document.activeElement));
    expect(inMain, `focus after the skip link: ${await describeFocus(page)}`).toBe(true);
    await expectVisibleFocus(page);
  });

  test("the desktop submenus open, close and lead to their pages", async ({ page }) => {
    await page.setViewportSize(viewports.desktop);
    await openPage(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });

    const about = desktopMenuToggle(page, "About");
    await tabTo(page, about);
    await page.keyboard.press("Enter");
    await expectExpanded(about, true);
    await tabTo(page, nav.getByRole("link", { name: "Our Approach" }));
    await page.keyboard.press("Escape");
    await expectExpanded(about, false);
    await expect(about).toBeFocused();
    await expect(nav.getByRole("link", { name: "Our Approach" })).toBeHidden();

    // Opening the next submenu with Space closes the first: one is open at a time.
    await page.keyboard.press("Enter");
    await expectExpanded(about, true);
    const trt = desktopMenuToggle(page, "TRT");
    await tabTo(page, trt);
    await page.keyboard.press("Space");
    await expectExpanded(trt, true);
    await expectExpanded(about, false);
    await tabTo(page, nav.getByRole("link", { name: "FAQ" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/faq");
    await expectExpanded(trt, false);
  });

  test("the mobile menu opens, expands a section, closes with Escape and is never a trap", async ({
    page,
  }) => {
    // The menu and its sections are native <details> (decision 105): the browser reports
    // their expanded state, which is read from its accessibility tree.
    await page.setViewportSize(viewports.mobile);
    await openPage(page, "/");
    const toggle = phoneMenuToggle(page);
    await tabTo(page, toggle);
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAccessibleName("Close menu");
    await expect(toggle).toBeFocused();
    await expectExpanded(toggle, true);
    const nav = page.getByRole("navigation", { name: "Main" });

    const trt = nav.locator("summary", { hasText: "TRT" });
    await tabTo(page, trt);
    await page.keyboard.press("Enter");
    await expectExpanded(trt, true);
    await tabTo(page, nav.getByRole("link", { name: "Overview" }));

    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();
    await expectExpanded(toggle, false);

    // Open again and Tab through to the end: focus leaves the menu, which closes behind it.
    await page.keyboard.press("Enter");
    await tabTo(page, nav.getByRole("link", { name: "Register Interest" }));
    await page.keyboard.press("Tab");
    await expect(nav).toBeHidden();
    await expectVisibleFocus(page);
    const inMain = await page.locator("main").evaluate((m) => m.contains(document.activeElement));
    expect(inMain, `focus after the menu: ${await describeFocus(page)}`).toBe(true);

    // And a link followed from the menu closes it.
    await tabTo(page, toggle, { reverse: true });
    await page.keyboard.press("Enter");
    await tabTo(page, nav.getByRole("link", { name: "Services" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/services");
    await expect(nav).toBeHidden();
  });

  test("an FAQ answer opens and closes from the keyboard", async ({ page }) => {
    await openPage(page, "/faq");
    const main = page.getByRole("main");
    // Each question is the <summary> of a native <details> (decision 054).
    const first = main.locator("summary").first();
    await tabTo(page, first);
    await expectExpanded(first, false);
    const answer = main.locator("details").first().locator("summary + *");
    await expect(answer).toBeHidden();
    await page.keyboard.press("Enter");
    await expectExpanded(first, true);
    await expect(answer).toBeVisible();
    await page.keyboard.press("Space");
    await expectExpanded(first, false);
    await expect(answer).toBeHidden();
  });

  test("the quiz can be found and completed from the keyboard", async ({ page }) => {
    // A Tab journey over two pages and every question: slow when the cores are shared.
    test.slow();
    await openPage(page, "/");
    await tabTo(page, page.getByRole("link", { name: "Take the ADAM Quiz" }), { max: 60 });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/quiz");
    const main = page.getByRole("main");

    for (let question = 1; question <= 10; question++) {
      // Into the answers: the first radio takes focus; Space chooses it ("Never").
      const never = main.getByRole("radio", { name: "Never" });
      await tabTo(page, never);
      await page.keyboard.press("Space");
      await expect(never).toBeChecked();
      const next = main.getByRole("button", { name: question === 10 ? "View Results" : "Next" });
      await tabTo(page, next);
      await page.keyboard.press("Enter");
    }
    const register = main.getByRole("link", { name: "Register Your Interest" });
    await expect(register).toBeVisible();
    await tabTo(page, register);
  });

  test("the registration form can be filled in and sent from the keyboard", async ({ page }) => {
    await openPage(page, "/register-interest");
    const main = page.getByRole("main");
    await tabTo(page, main.getByRole("textbox", { name: /name/i }).first());
    await page.keyboard.type("Sam Keyboard");
    await tabTo(page, main.getByRole("textbox", { name: /email/i }));
    await page.keyboard.type(`sam.keyboard+${Date.now()}@example.co.uk`);
    await tabTo(page, main.getByRole("textbox", { name: /phone/i }));
    await page.keyboard.type("07700 900123");
    await tabTo(page, main.getByRole("textbox", { name: /know|message/i }));
    await page.keyboard.type("Sent without a mouse.");
    await tabTo(page, main.getByRole("button", { name: "Register Interest" }));
    await page.keyboard.press("Enter");

    const home = main.getByRole("link", { name: "Return to Homepage" });
    await expect(home).toBeVisible({ timeout: 15_000 });
    await tabTo(page, home);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/");
  });
});

test("a cookie choice can be made from the keyboard, and the dialog closes with Escape", async ({
  page,
}) => {
  await openPage(page, "/");
  const banner = page.getByRole("region", { name: "Cookies on this site" });
  await expect(banner).toBeVisible();

  // The banner comes right after the skip link, ahead of the page (decision 058).
  const manage = banner.getByRole("button", { name: "Manage preferences" });
  await tabTo(page, manage, { max: 4 });
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Cookie preferences" });
  await expect(dialog).toBeVisible();
  const focusInDialog = await dialog.evaluate((d) => d.contains(document.activeElement));
  expect(focusInDialog, "focus moves into the dialog").toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(manage).toBeFocused();

  const essential = banner.getByRole("button", { name: "Essential Only" });
  await tabTo(page, essential, { max: 3 });
  await page.keyboard.press("Enter");
  await expect(banner).toBeHidden();
  const stored = await page.evaluate(() => localStorage.getItem("meridian-clinic.cookie-consent"));
  expect(JSON.parse(stored ?? "{}")).toMatchObject({ analytics: false, marketing: false });
});
