/**
 * The phone menu in browsers older than the ones this site was first built for (issue 22,
 * docs/browsers.md): one without the Popover API (Safari before 17) and one without
 * exclusive `<details name>` (Safari before 17.2), emulated in Chromium. The served HTML
 * loses its `popover`/`popovertarget` attributes, or the `name` of its `<details>`, and the
 * Popover API's methods are deleted before any page script runs. The menu must open and
 * close, its links must work, one section must be open at a time, and while closed nothing
 * of it may cover the page.
 */
import { type Page, expect, test } from "@playwright/test";

import { phoneMenuToggle, seedConsent, viewports } from "../support/site.ts";

test.use({ viewport: viewports.mobile });

const emulations = {
  "no Popover API": {
    strip: /\s(popover|popovertarget|popovertargetaction)(="[^"]*")?(?=[\s>])/g,
    stripped: "[popover], [popovertarget]",
    init: () => {
      const proto = HTMLElement.prototype as unknown as Record<string, unknown>;
      for (const method of ["showPopover", "hidePopover", "togglePopover"]) delete proto[method];
    },
  },
  "no exclusive <details name>": {
    strip: /(<details\b[^>]*?)\sname="[^"]*"/g,
    stripped: "details[name]",
    init: () => {
      delete (HTMLDetailsElement.prototype as unknown as Record<string, unknown>)["name"];
    },
  },
} as const;

async function serveStripped(page: Page, strip: RegExp) {
  await page.route(
    (url) => !url.pathname.startsWith("/assets/"),
    async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const response = await route.fetch();
      const html = (await response.text()).replace(strip, (match, before?: string) =>
        typeof before === "string" && match.startsWith("<details") ? before : "",
      );
      await route.fulfill({ response, body: html });
    },
  );
}

/** Whether the element at the centre of the h1 is the h1 itself (or inside it). */
async function headingIsUncovered(page: Page) {
  return page.evaluate(() => {
    const h1 = document.querySelector("main h1");
    if (!h1) return false;
    const box = h1.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && h1.contains(hit);
  });
}

for (const [label, { strip, stripped, init }] of Object.entries(emulations)) {
  for (const path of ["/", "/pricing"]) {
    test(`${label}, ${path}: the phone menu opens, closes, keeps one section and never covers the page`, async ({
      page,
      context,
    }) => {
      await seedConsent(context);
      await context.addInitScript(init);
      await serveStripped(page, strip);
      await page.goto(path);
      await expect(page.locator(stripped)).toHaveCount(0);

      const toggle = phoneMenuToggle(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeHidden();
      expect(await headingIsUncovered(page), "the closed menu covers nothing").toBe(true);

      await toggle.click();
      await expect(nav).toBeVisible();
      await nav.locator("summary", { hasText: "About" }).click();
      await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeVisible();
      await nav.locator("summary", { hasText: "TRT" }).click();
      await expect(nav.getByRole("link", { name: "FAQ" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Meet the Team" })).toBeHidden();
      expect(await nav.locator("details[open]").count()).toBe(1);

      await toggle.click();
      await expect(nav).toBeHidden();
      expect(await headingIsUncovered(page), "the menu closed again covers nothing").toBe(true);

      // Opened again, it shows the section left open.
      await toggle.click();
      await nav.getByRole("link", { name: "FAQ" }).click();
      await expect(page).toHaveURL("/faq");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Frequently Asked Questions",
      );
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      expect(await headingIsUncovered(page)).toBe(true);
    });
  }
}
