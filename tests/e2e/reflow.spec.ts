/**
 * Reflow (WCAG 1.4.10) and reduced motion (2.3.3), of the pages and of every email.
 *
 * Reflow is checked at 320 CSS px wide, and at 200% zoom of a 1280 x 800 window. Browser
 * zoom halves the CSS viewport and doubles the device pixel ratio, so 200% zoom is
 * emulated as a 640 x 400 CSS px viewport with deviceScaleFactor 2. Media queries,
 * layout and text size then match what a zoomed 1280 px window shows.
 */
import { type Page, expect, test } from "@playwright/test";

import { buildEmail, type MailJob } from "../../server/mail/build-email.ts";
import {
  allPages,
  horizontalOverflow,
  openPage,
  phoneMenuToggle,
  seedConsent,
} from "../support/site.ts";

/** Checks that `what` needs no horizontal scrolling, naming what sticks out if it does. */
async function expectNoHorizontalOverflow(page: Page, what: string) {
  expect(await horizontalOverflow(page), `${what} scrolls sideways`).toBe("");
}

for (const layout of [
  // Each page at 320 px is checked on its one visit in every-page.spec.ts.
  { name: "320px wide", viewport: { width: 320, height: 640 }, deviceScaleFactor: 1, paths: [] },
  {
    name: "1280px at 200% zoom",
    viewport: { width: 640, height: 400 },
    deviceScaleFactor: 2,
    paths: allPages,
  },
]) {
  test.describe(layout.name, () => {
    test.use({ viewport: layout.viewport, deviceScaleFactor: layout.deviceScaleFactor });
    test.beforeEach(({ context }) => seedConsent(context));

    for (const path of layout.paths) {
      test(`${path} reflows without horizontal scrolling`, async ({ page }) => {
        await openPage(page, path);
        await expectNoHorizontalOverflow(page, "the page");
      });
    }

    test("the open mobile menu and the consent banner reflow too", async ({ page, context }) => {
      await context.clearCookies();
      await page.addInitScript(() => window.localStorage.clear());
      await openPage(page, "/");
      await expect(page.getByRole("region", { name: "Cookies on this site" })).toBeVisible();
      await phoneMenuToggle(page).click();
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await expectNoHorizontalOverflow(page, "the page with the menu and the banner");
    });
  });
}

test.describe("every email the site sends, as a phone shows its HTML part", () => {
  const registration = {
    id: "0b6f2a4e-9d1c-4c1e-8f7a-2b3c4d5e6f70",
    name: "Alexander Montgomery-Fitzwilliam",
    email: "alexander.montgomery-fitzwilliam@example.co.uk",
    receivedAt: "2026-11-23T10:00:00.000Z",
    wantsUpdates: false,
  };
  const staffText = (what: string) =>
    `${what}\n\nRead more at https://www.clinic.example.co.uk/consultation?utm_source=email&utm_campaign=opening-2026#requirements`;
  const jobs: Record<string, Omit<MailJob, "outboxId">> = {
    "the confirmation": { topic: "confirmation", registration, announcement: null },
    "the confirmation for someone who asked for news": {
      topic: "confirmation",
      registration: { ...registration, wantsUpdates: true },
      announcement: null,
    },
    "the launch announcement": {
      topic: "announcement",
      registration,
      announcement: { subject: "We are open", body: staffText("Our doors open today.") },
    },
    "the news announcement": {
      topic: "announcement",
      registration: { ...registration, wantsUpdates: true },
      announcement: { subject: "News before we open", body: staffText("Our team is complete.") },
    },
  };

  for (const width of [320, 390]) {
    for (const [kind, job] of Object.entries(jobs)) {
      test(`${kind} fits ${width}px without horizontal scrolling`, async ({ page }) => {
        const mail = buildEmail(
          { outboxId: "44444444-4444-4444-8444-444444444444", ...job },
          { siteOrigin: "https://www.clinic.example.co.uk", linkKey: "k".repeat(64) },
        );
        await page.setViewportSize({ width, height: 800 });
        await page.setContent(String(mail.html));
        await expectNoHorizontalOverflow(page, "the email");
      });
    }
  }
});

test.describe("prefers-reduced-motion", () => {
  /** The longest transition or animation on any element, in milliseconds. */
  const longestMotion = (page: Page) =>
    page.evaluate(() => {
      const seconds = (css: string) =>
        Math.max(
          ...css.split(",").map((t) => parseFloat(t) / (t.trim().endsWith("ms") ? 1000 : 1)),
        );
      let longest = { ms: 0, element: "" };
      for (const el of document.querySelectorAll("*")) {
        const style = getComputedStyle(el);
        const ms =
          1000 *
          Math.max(
            seconds(style.transitionDuration),
            style.animationName === "none" ? 0 : seconds(style.animationDuration),
          );
        if (ms > longest.ms) {
          longest = {
            ms,
            element: `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`,
          };
        }
      }
      return longest;
    });

  test("transitions run normally, and are switched off when motion is reduced", async ({
    page,
    context,
  }) => {
    await seedConsent(context);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openPage(page, "/quiz");
    const normal = await longestMotion(page);
    expect(normal.ms, "the site has transitions to switch off").toBeGreaterThan(100);

    await page.emulateMedia({ reducedMotion: "reduce" });
    const reduced = await longestMotion(page);
    expect(reduced.ms, `longest motion left when reduced: ${reduced.element}`).toBeLessThan(1);
    // Smooth scrolling is off too.
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior),
    ).toBe("auto");
  });
});
