/**
 * The widgets that are native HTML (decision 054): the FAQ and treatment accordions are
 * <details> sharing a name, the phone menu a popover. They must answer the very first
 * click, whether the page's script has run, is still on its way, or never runs.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

import { faqGroups } from "../../app/content/faq.ts";
import { mouseClick, phoneMenuToggle, seedConsent, viewports } from "../support/site.ts";

/** Per page, the lists whose first question is tried: every FAQ group, the treatment details. */
const listsByPath = {
  "/faq": (page: Page) =>
    faqGroups.map((group) => page.getByRole("region", { name: group.title, exact: true })),
  "/treatment-options": (page: Page) => [page.getByRole("region", { name: "Treatment details" })],
};

/** Clicks the first question of each list once, and checks that its answer opened. */
async function clickEachFirstQuestion(page: Page, lists: Locator[]) {
  for (const list of lists) {
    const details = list.locator("details").first();
    const answer = details.locator("summary + *");
    await expect(answer).toBeHidden();
    await mouseClick(page, details.locator("summary"));
    await expect(details).toHaveAttribute("open", "");
    await expect(answer).toBeVisible();
  }
}

// Once the page is interactive: content-pages.spec.ts, whose accordions start with one.
test.describe("a first mouse click opens the first question of every list", () => {
  test.beforeEach(({ context }) => seedConsent(context));

  for (const [path, lists] of Object.entries(listsByPath)) {
    test(`${path}, as soon as it shows`, async ({ page }) => {
      await page.goto(path, { waitUntil: "commit" });
      await clickEachFirstQuestion(page, lists(page));
    });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const [path, lists] of Object.entries(listsByPath)) {
    test(`${path}: a first mouse click opens the first question of every list`, async ({
      page,
    }) => {
      await page.goto(path);
      await clickEachFirstQuestion(page, lists(page));
    });
  }

  test("FAQ answers open one at a time within a group", async ({ page }) => {
    await page.goto("/faq");
    const group = page.getByRole("region", { name: faqGroups[0]!.title, exact: true });
    const [first, second] = faqGroups[0]!.items;
    await group.locator("summary", { hasText: first!.question }).click();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeVisible();
    await group.locator("summary", { hasText: second!.question }).click();
    await expect(group.getByText(second!.answer[0]!, { exact: true })).toBeVisible();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeHidden();
  });

  test.describe("at 390 px", () => {
    test.use({ viewport: viewports.mobile });

    test("the phone menu opens, expands a section, closes, and its links work", async ({
      page,
    }) => {
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeHidden();

      await phoneMenuToggle(page).click();
      await expect(nav).toBeVisible();
      // The toggle's name follows the panel through CSS alone.
      await expect(phoneMenuToggle(page)).toHaveAccessibleName("Close menu");
      await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeHidden();
      await nav.locator("summary", { hasText: "About" }).click();
      await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeVisible();
      await nav.locator("summary", { hasText: "TRT" }).click();
      await expect(nav.getByRole("link", { name: "FAQ" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeHidden();

      // Without JavaScript, Escape does nothing to a <details>: the toggle closes it.
      await phoneMenuToggle(page).click();
      await expect(nav).toBeHidden();
      await expect(phoneMenuToggle(page)).toBeFocused();

      await phoneMenuToggle(page).click();
      await nav.getByRole("link", { name: "FAQ" }).click();
      await expect(page).toHaveURL("/faq");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Frequently Asked Questions",
      );
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    });
  });
});
