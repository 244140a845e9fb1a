import { type Locator, expect, test } from "@playwright/test";

import { openPage, seedConsent } from "../support/site.ts";

/** Layout defects seen on phones, checked by bounding boxes at 320 and 390 px wide. */

/** The distinct line tops a piece of text occupies inside `root`, from `from` to `to`. */
async function linesSpanned(root: Locator, from: string, to: string): Promise<number> {
  return root.evaluate(
    (el, [start, end]) => {
      const text = el.textContent ?? "";
      const a = text.indexOf(start);
      const b = text.indexOf(end, a) + end.length;
      if (a < 0 || b < end.length) throw new Error(`"${start}…${end}" not in "${text}"`);
      const range = document.createRange();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let offset = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent?.length ?? 0;
        if (a >= offset && a < offset + length) range.setStart(node, a - offset);
        if (b > offset && b <= offset + length) range.setEnd(node, b - offset);
        offset += length;
      }
      // Boxes of different type sizes on one line overlap vertically; a new line starts below.
      const rects = [...range.getClientRects()]
        .filter((r) => r.width > 0)
        .sort((p, q) => p.top - q.top);
      let lines = 0;
      let lineBottom = -Infinity;
      for (const r of rects) {
        if (r.top >= lineBottom - 1) lines += 1;
        lineBottom = Math.max(lineBottom, r.bottom);
      }
      return lines;
    },
    [from, to] as const,
  );
}

async function expectInside(inner: Locator, outer: Locator, what: string) {
  const i = (await inner.boundingBox())!;
  const o = (await outer.boundingBox())!;
  expect(i.x, `${what}: left edge`).toBeGreaterThanOrEqual(o.x - 0.5);
  expect(i.x + i.width, `${what}: right edge`).toBeLessThanOrEqual(o.x + o.width + 0.5);
}

for (const width of [320, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });
    test.beforeEach(({ context }) => seedConsent(context));

    test("the three-step process shows every step title whole, and the monitoring timeline spaces its marks evenly", async ({
      page,
    }) => {
      await openPage(page, "/our-approach");
      const figure = page.locator("#process figure");
      const titles = figure.locator("[data-step-title]");
      await expect(titles).toHaveText([
        "Initial Assessment",
        "Treatment Initiation",
        "Ongoing Care",
      ]);
      for (const title of await titles.all()) {
        await expect(title).toBeVisible();
        await expectInside(title, figure, (await title.textContent()) ?? "");
        expect(await title.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
      }

      const timeline = page.locator("#ongoing-care figure");
      const marks = timeline.locator("[data-mark]");
      await expect(marks).toHaveCount(6);
      const centres: number[] = [];
      for (const mark of await marks.all()) {
        await expectInside(mark, timeline, "timeline mark");
        const box = (await mark.boundingBox())!;
        centres.push(box.y + box.height / 2);
      }
      const gaps = centres.slice(1).map((c, i) => c - centres[i]!);
      expect(Math.min(...gaps)).toBeGreaterThan(40);
      expect(Math.max(...gaps) / Math.min(...gaps)).toBeLessThan(1.35);
    });

    test("the status banner shows its whole line", async ({ page }) => {
      await openPage(page, "/");
      const line = page.getByRole("region", { name: "Regulatory status" }).locator("p");
      await expect(line).toHaveText("Services Available Upon CQC Approval");
      expect(await line.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
      const box = (await line.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    });

    test("the quiz's Previous and Next buttons stay inside the card's padding", async ({
      page,
    }) => {
      await openPage(page, "/quiz");
      const previous = page.getByRole("button", { name: "Previous" });
      const row = previous.locator("xpath=..");
      for (let question = 1; question <= 10; question++) {
        // The last question's button says "View Results", the longest label.
        const next = page.getByRole("button", { name: question === 10 ? "View Results" : "Next" });
        await page.getByRole("radio").first().check();
        await expectInside(previous, row, `question ${question}: Previous`);
        await expectInside(next, row, `question ${question}: ${await next.textContent()}`);
        if (question < 10) await next.click();
      }
    });

    test("the sticky estimate keeps each figure with its unit", async ({ page }) => {
      await openPage(page, "/pricing");
      const estimate = page.getByTestId("sticky-estimate");
      await expect(estimate).toBeVisible();
      const text = (await estimate.textContent()) ?? "";
      const [monthly, yearly] = [...text.matchAll(/£[\d,.]+/g)].map((m) => m[0]);
      expect(await linesSpanned(estimate, monthly!, "a month")).toBe(1);
      expect(await linesSpanned(estimate, yearly!, "a year")).toBe(1);
      const box = (await estimate.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    });

    test("after registering, the thank-you card sits below the fixed header", async ({ page }) => {
      await openPage(page, "/register-interest");
      await page.getByLabel("Full name").fill("Layout Check");
      await page.getByLabel("Email address").fill(`layout-${width}-${Date.now()}@example.com`);
      await page.getByRole("button", { name: "Register Interest" }).click();
      const heading = page.locator("#thank-you-heading");
      await expect(heading).toBeFocused();
      // Let any scrolling settle, then measure the whole card.
      await page.waitForFunction(
        () =>
          new Promise<boolean>((resolve) =>
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
          ),
      );
      const card = heading.locator("xpath=..");
      const box = (await card.boundingBox())!;
      const header = (await page.locator("header").first().boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(header.y + 64);
      expect(box.y).toBeLessThan(844 / 2);
    });
  });
}
