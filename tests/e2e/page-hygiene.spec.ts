/**
 * What a look at the network panel flagged on the landed site, kept fixed here: a
 * navigation journey asks for nothing twice. The desktop journey also follows every link
 * of the submenus. What html-validate, pa11y and the Nu checker flagged (every button says
 * its type, each module is preloaded once): html-validity.spec.ts, every-page.spec.ts and
 * a11y.spec.ts.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

import {
  desktopMenuToggle,
  openPage,
  phoneMenuToggle,
  seedConsent,
  viewports,
} from "../support/site.ts";

test.describe("a navigation journey asks for nothing twice", () => {
  test.beforeEach(({ context }) => seedConsent(context));

  /**
   * Every request the page sends to the network from now on, as "METHOD url", and whether
   * an identical request had already finished loading. Answers from the browser's cache are
   * left out: every link loads a document (decision 126), and the next island page asks
   * again for the immutable modules it shares with the last one, which the cache answers.
   * A load the next click cancelled is not a repeat: under load in CI a link was followed
   * before the island's modules arrived, and the next page rightly asked for them again.
   * The favicon is left out: Chromium asks for it on its own.
   */
  async function record(page: Page) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    const sent = new Map<string, string>();
    const cached = new Set<string>();
    const loaded = new Set<string>();
    const repeated: string[] = [];
    cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
      if (new URL(request.url).pathname === "/favicon.svg") return;
      sent.set(requestId, `${request.method} ${request.url}`);
    });
    cdp.on("Network.requestServedFromCache", ({ requestId }) => cached.add(requestId));
    cdp.on("Network.responseReceived", ({ requestId, response }) => {
      if (response.fromDiskCache || response.fromPrefetchCache) cached.add(requestId);
    });
    cdp.on("Network.loadingFinished", ({ requestId }) => {
      const request = sent.get(requestId);
      if (request === undefined || cached.has(requestId)) return;
      if (loaded.has(request)) repeated.push(request);
      loaded.add(request);
    });
    return () => ({
      sent: [...sent].filter(([id]) => !cached.has(id)).map(([, request]) => request),
      repeated,
    });
  }

  async function follow(page: Page, where: Locator, name: string, path: string) {
    await where.getByRole("link", { name }).click();
    await expect(page).toHaveURL(path);
  }

  /** Both journeys end on two island pages that share modules, then check what loaded twice. */
  async function endOnTheIslands(page: Page, recorded: Awaited<ReturnType<typeof record>>) {
    await follow(page, page.locator("footer"), "Pricing", "/pricing");
    await follow(page, page.locator("footer"), "Symptom Quiz", "/quiz");
    await page.waitForLoadState("networkidle");
    const { sent, repeated } = recorded();
    // Every link loads a document (decisions 105 and 126), which asks again for the
    // immutable font; the browser answers that from its cache.
    const modules = repeated.filter((r) => !/\/assets\/[\w-]+\.woff2$/.test(r));
    expect(modules, `loaded more than once:\n${sent.join("\n")}`).toEqual([]);
    // No page runs React Router in the browser, so nothing asks it which route a link leads to.
    expect(sent.filter((r) => r.includes("/__manifest"))).toEqual([]);
  }

  test("through the desktop menu", async ({ page }) => {
    await page.setViewportSize(viewports.desktop);
    const requests = await record(page);
    await openPage(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [group, link, path] of [
      ["About", "Our Approach", "/our-approach"],
      ["TRT", "FAQ", "/faq"],
      ["About", "Meet the Team", "/team"],
      ["TRT", "Overview", "/trt-overview"],
    ] as const) {
      await desktopMenuToggle(page, group).click();
      await follow(page, nav, link, path);
    }
    await follow(page, nav, "Services", "/services");
    await follow(page, page.locator("header"), "Register Interest", "/register-interest");
    await endOnTheIslands(page, requests);
  });

  test("through the phone menu", async ({ page }) => {
    await page.setViewportSize(viewports.mobile);
    const requests = await record(page);
    await openPage(page, "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [group, link, path] of [
      ["TRT", "FAQ", "/faq"],
      ["About", "Our Approach", "/our-approach"],
      ["TRT", "Overview", "/trt-overview"],
    ] as const) {
      await phoneMenuToggle(page).click();
      await nav.locator("summary", { hasText: group }).click();
      await follow(page, nav, link, path);
    }
    await endOnTheIslands(page, requests);
  });
});
