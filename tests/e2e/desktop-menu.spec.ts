/**
 * The desktop menu with a mouse: native `<details>` run by the inline page script
 * (decision 105). The pointer opens a submenu after the spec's delay (at once when it
 * moves across from another open one), and a press on the toggle toggles it. A visitor who
 * points and then presses means "open": the first press after the pointer opened a submenu
 * must not close what he was opening (decision 093). This is what made "through the desktop
 * menu" in page-hygiene.spec.ts fail now and then.
 */
import { type Page, expect, test } from "@playwright/test";

import {
  desktopMenuToggle,
  expectExpanded,
  openPage,
  seedConsent,
  viewports,
} from "../support/site.ts";

test.use({ viewport: viewports.desktop });

/** A link of the main navigation. */
const navLink = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name });

// Every test starts with the pointer on "About", which opens its submenu after the delay.
test.beforeEach(async ({ context, page }) => {
  await seedConsent(context);
  await openPage(page, "/");
  await desktopMenuToggle(page, "About").hover();
  await expect(navLink(page, "Our Approach")).toBeVisible();
});

test("moving across to the next submenu and pressing it keeps that one open", async ({ page }) => {
  // Within the skip delay the next submenu opens as soon as the pointer reaches it.
  const trt = desktopMenuToggle(page, "TRT");
  await trt.hover();
  await expectExpanded(trt, true);
  await trt.click();
  await expectExpanded(trt, true);
  await navLink(page, "FAQ").click();
  await expect(page).toHaveURL("/faq");
});

test("a press just after pointing opened the submenu keeps it open, the next press closes it, and so does a press after the pointer left and came back", async ({
  page,
}) => {
  const about = desktopMenuToggle(page, "About");
  await about.click();
  await expectExpanded(about, true);
  await about.click();
  await expectExpanded(about, false);
  await expect(navLink(page, "Our Approach")).toBeHidden();

  // Opened by pointing, then the pointer goes into the submenu and back to the button.
  await page.mouse.move(0, 0);
  const trt = desktopMenuToggle(page, "TRT");
  await trt.hover();
  await expect(navLink(page, "FAQ")).toBeVisible();
  await navLink(page, "FAQ").hover();
  await trt.click();
  await expectExpanded(trt, false);
  await expect(navLink(page, "FAQ")).toBeHidden();
});
