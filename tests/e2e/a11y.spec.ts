/**
 * WCAG 2.2 AA checks with axe-core on the states that only appear after an action: the
 * mobile menu, the consent banner and its dialog, the quiz, the registration form's errors,
 * and the pages behind email links (every page as it loads: every-page.spec.ts). Wherever
 * axe looks, no element may hold two utilities that set the same thing either
 * (../support/class-conflicts.ts), and no <button> in the document may lack a type.
 */
import { type Page, expect, test } from "@playwright/test";

import { classConflicts } from "../support/class-conflicts.ts";
import { confirmPath, registerSomeone, unsubscribePath } from "../support/email-links.ts";
import {
  axeViolations,
  desktopMenuToggle,
  openPage,
  phoneMenuToggle,
  seedConsent,
  untypedButtons,
  viewports,
} from "../support/site.ts";

/**
 * axe on the page (or part of it), then the same part for class lists in conflict, and the
 * whole document for a <button> without a type.
 */
async function expectNoViolations(page: Page, label: string, include?: string) {
  expect(await axeViolations(page, include), `axe violations on ${label}`).toEqual([]);
  expect(await classConflicts(page, include), `class conflicts on ${label}`).toEqual([]);
  expect(await untypedButtons(page), `buttons without a type on ${label}`).toEqual([]);
}

/** Opens `path` at `viewport`, with a cookie choice stored so that the banner stays away. */
async function openAt(page: Page, viewport: { width: number; height: number }, path: string) {
  await page.setViewportSize(viewport);
  await seedConsent(page.context());
  await openPage(page, path);
}

// Each state is checked where it appears (the header, the banner, the dialog, the main
// content): the pages around them are checked whole in every-page.spec.ts, and a fault
// there would otherwise be reported again under every state.
test.describe("states", () => {
  test("the mobile menu, open with a section expanded", async ({ page }) => {
    await openAt(page, viewports.mobile, "/");
    await phoneMenuToggle(page).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    await expectNoViolations(page, "the open mobile menu", "header");
    await nav.locator("summary", { hasText: "About" }).click();
    await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeVisible();
    await expectNoViolations(page, "the mobile menu with About expanded", "header");
  });

  test("a desktop submenu, open", async ({ page }) => {
    await openAt(page, viewports.desktop, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await desktopMenuToggle(page, "TRT").click();
    await expect(nav.getByRole("link", { name: "FAQ" })).toBeVisible();
    await expectNoViolations(page, "the open TRT submenu", "header");
  });

  test("a quiz question with an answer chosen, and the result", async ({ page }) => {
    // Two axe passes and the whole quiz between them.
    test.slow();
    await openAt(page, viewports.mobile, "/quiz");
    const main = page.getByRole("main");
    await main.getByRole("radio", { name: "Sometimes" }).click();
    await expectNoViolations(page, "a quiz question with an answer", "main");

    for (let question = 1; question <= 10; question++) {
      await main.getByRole("radio", { name: "Never" }).click();
      await main.getByRole("button", { name: question === 10 ? "View Results" : "Next" }).click();
    }
    await expect(main.getByRole("link", { name: "Register Your Interest" })).toBeVisible();
    await expectNoViolations(page, "the quiz result", "main");
  });

  test("the registration form showing its errors", async ({ page }) => {
    await openAt(page, viewports.mobile, "/register-interest");
    const main = page.getByRole("main");
    await main.getByRole("textbox", { name: /name/i }).first().fill("Sam Example");
    const email = main.getByRole("textbox", { name: /email/i });
    await email.fill("not-an-email");
    await main.getByRole("button", { name: "Register Interest" }).click();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expectNoViolations(page, "the registration form with an invalid email", "main");

    // Both required fields empty: both errors, and the toast.
    await main.getByRole("textbox", { name: /name/i }).first().fill("");
    await email.fill("");
    await main.getByRole("button", { name: "Register Interest" }).click();
    await expect(page.getByText("Please fill in all required fields")).toBeVisible();
    // Check the toast as it is read, not while it fades in (half-faded text fails contrast).
    await expect(page.locator("[data-sonner-toast]")).toHaveCSS("opacity", "1");
    await expectNoViolations(page, "the registration form with empty required fields");
  });

  for (const [size, viewport] of Object.entries(viewports)) {
    const at = `at ${viewport.width}px`;
    test(`the consent banner and its preferences dialog (${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      // No stored choice: a first visit.
      await openPage(page, "/");
      const banner = page.getByRole("region", { name: "Cookies on this site" });
      await expect(banner).toBeVisible();
      await expectNoViolations(page, `the consent banner ${at}`, "#consent-banner");

      await banner.getByRole("button", { name: "Manage preferences" }).click();
      await expect(page.getByRole("dialog", { name: "Cookie preferences" })).toBeVisible();
      await expectNoViolations(page, `the preferences dialog ${at}`, "#cookie-preferences");
    });

    test(`the email-link pages: confirm, confirmed, refused, unsubscribe and done (${size})`, async ({
      page,
      baseURL,
    }) => {
      // Five pages, each checked by axe: about 5 s each when the machine is slow.
      test.slow();
      await page.setViewportSize(viewport);
      await seedConsent(page.context());
      const someone = await registerSomeone(baseURL ?? "", `a11y-${size}`);

      expect((await page.goto(confirmPath(someone.confirmToken())))?.status()).toBe(200);
      await expectNoViolations(page, `the confirm button ${at}`);
      await page.getByRole("button", { name: "Confirm my email address" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Your email address is confirmed",
      );
      await expectNoViolations(page, `the confirmed page ${at}`);
      expect((await page.goto(confirmPath("not-a-token")))?.status()).toBe(400);
      await expectNoViolations(page, `the refused confirm link ${at}`);

      expect((await page.goto(unsubscribePath(someone.unsubscribeToken())))?.status()).toBe(200);
      await expectNoViolations(page, `the unsubscribe button ${at}`);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
      await expectNoViolations(page, `the unsubscribed page ${at}`);
    });
  }
});

test("the axe check reports a fault (it can fail)", async ({ page }) => {
  await openAt(page, viewports.desktop, "/");
  await page.evaluate(() =>
    document.querySelector("main")?.insertAdjacentHTML("beforeend", '<img src="/x.png">'),
  );
  expect(await axeViolations(page)).toEqual([expect.stringMatching(/^image-alt \(critical\) /)]);
});
