/**
 * One visit to every page of the route table and the 404 page, at phone and desktop
 * width, as a first-time visitor with a stored cookie choice; every check that needs only
 * the page as it loads runs on that one visit, each failing on its own (soft) so a page
 * reports all its faults at once:
 * - budgets: every document, script and stylesheet fetched until the network is quiet,
 *   gzipped at level 9 as the precompressed files are, inline scripts included (issue 22,
 *   decision 142: a content page within 15 KB of JavaScript, a page that hydrates 110 KB;
 *   CSS 15 KB, HTML 30 KB);
 * - axe (WCAG 2.2 AA) and no element holding two utilities that set the same thing
 *   (../support/class-conflicts.ts);
 * - no CSP violation or console complaint while it loads and hydrates, prerendered pages
 *   under script hashes;
 * - every <button> in the live document states its type;
 * - the status banner above the header, and the page's main heading;
 * - at desktop width, the head (title, description, canonical URL, social tags, JSON-LD)
 *   and every figure the spec gives the page.
 * Interactive states (menus, dialogs, the quiz, the form's errors) are in their own specs.
 */
import { gzipSync } from "node:zlib";

import { type Page, type Response, expect, test } from "@playwright/test";

import { type PagePath, pages } from "../../app/content/pages.ts";
import { CONSENT_STORAGE_KEY } from "../../app/features/consent/consent-record.ts";
import { sitemapPaths } from "../../app/prerendered-paths.ts";
import { classConflicts } from "../support/class-conflicts.ts";
import {
  allPages,
  axeViolations,
  hydratedPaths,
  notFoundPath,
  openPage,
  seedConsent,
  staticRoutes,
  viewports,
  watchCsp,
} from "../support/site.ts";

/** KB (1024 bytes) gzipped. */
const budgets = { css: 15, html: 30, js: { content: 15, hydrated: 110 } } as const;
type Kind = "js" | "css" | "html";

function kindOf(response: Response): Kind | null {
  const type = response.request().resourceType();
  const contentType = response.headers()["content-type"] ?? "";
  if (type === "script" || contentType.includes("javascript")) return "js";
  if (type === "stylesheet" || contentType.includes("text/css")) return "css";
  if (type === "document" || contentType.includes("text/html")) return "html";
  return null;
}

/** Starts weighing what the page fetches; the result adds the inline scripts. */
function weigh(page: Page): () => Promise<Record<Kind, number> & { files: number }> {
  const totals = { js: 0, css: 0, html: 0, files: 0 };
  const pending: Promise<void>[] = [];
  const seen = new Set<string>();
  page.on("response", (response) => {
    const kind = kindOf(response);
    if (!kind || seen.has(response.url())) return;
    seen.add(response.url());
    pending.push(
      response.body().then((body) => {
        totals[kind] += gzipSync(body, { level: 9 }).length;
        totals.files += 1;
      }),
    );
  });
  return async () => {
    await Promise.all(pending);
    const inline = await page.evaluate(() =>
      Array.from(document.querySelectorAll("script:not([src])"))
        .filter((s) => ["", "module", "text/javascript"].includes(s.getAttribute("type") ?? ""))
        .map((s) => s.textContent ?? ""),
    );
    for (const source of inline) totals.js += gzipSync(source, { level: 9 }).length;
    return totals;
  };
}

function jsonLd(texts: string[]): Record<string, unknown>[] {
  return texts.map((text, i) => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`JSON-LD block ${i} does not parse: ${String(error)}\n${text}`);
    }
  });
}

/** Canonical URL, social tags and image, and JSON-LD that parses (pages in the sitemap). */
async function checkHead(page: Page, path: string) {
  const xml = await (await page.request.get("/sitemap.xml")).text();
  const origin = new URL(/<loc>([^<]+)<\/loc>/.exec(xml)?.[1] ?? "http://missing.invalid").origin;
  const head = page.locator("head");
  const canonical = head.locator('link[rel="canonical"]');
  await expect.soft(canonical, `${path}: exactly one canonical link`).toHaveCount(1);
  const expected = new URL(path, origin).href;
  await expect.soft(canonical, `${path}: canonical URL`).toHaveAttribute("href", expected);
  const meta = async (selector: string) => {
    const tag = head.locator(selector);
    await expect.soft(tag, `${path}: ${selector}`).toHaveCount(1);
    const content =
      (await tag
        .first()
        .getAttribute("content")
        .catch(() => null)) ?? "";
    expect.soft(content.trim(), `${path}: ${selector} has content`).not.toBe("");
    return content;
  };
  const description = await meta('meta[name="description"]');
  expect
    .soft(description.length, `${path}: description fits a search result`)
    .toBeLessThanOrEqual(160);
  await meta('meta[property="og:title"]');
  await meta('meta[property="og:description"]');
  expect.soft(await meta('meta[property="og:url"]'), `${path}: og:url`).toBe(expected);
  expect.soft(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  const image = await meta('meta[property="og:image"]');
  expect.soft(await meta('meta[name="twitter:image"]'), `${path}: twitter:image`).toBe(image);
  if (image) {
    expect.soft(new URL(image).origin, `${path}: the social image is on the site`).toBe(origin);
    // Whatever the build's SITE_URL, the image must exist on this server.
    const png = await page.request.get(new URL(image).pathname);
    expect.soft(png.status(), image).toBe(200);
    expect.soft(png.headers()["content-type"]).toBe("image/png");
  }
  const blocks = jsonLd(await page.locator('script[type="application/ld+json"]').allTextContents());
  for (const block of blocks) {
    expect
      .soft(block["@context"], `${path}: JSON-LD @context`)
      .toMatch(/^https:\/\/schema\.org\/?$/);
  }
}

/** A content page's own title, description and heading (app/content/pages.ts). */
async function checkPageInfo(page: Page, path: PagePath) {
  const info = pages[path];
  await expect.soft(page, `${path}: title`).toHaveTitle(info.title);
  await expect
    .soft(page.locator('meta[name="description"]'), `${path}: description`)
    .toHaveAttribute("content", info.description);
  await expect
    .soft(page.locator('meta[property="og:title"]'), `${path}: og:title`)
    .toHaveAttribute("content", info.title);
  await expect
    .soft(page.getByRole("main").getByRole("heading", { level: 1 }), `${path}: its h1`)
    .toHaveText(info.heading);
}

/** Every figure of spec section 9, and the figures section 2 gives the content pages. */
const figures: Record<string, string[]> = {
  "/treatment-options": ["£15-65", "£50-75", "£90-200"],
  "/contact": ["Monday-Friday", "9:00 AM - 6:00 PM", "Closed", "Weekends closed"],
  "/services": ["6-8 weeks", "up to 12 months", "45-minute", "6 weeks, then 3, 6 and 12 months"],
  "/our-approach": [
    "6 weeks",
    "3 months",
    "6 months",
    "12 months",
    "below 12 nmol/L",
    "under 8 nmol/L",
    "before 10am",
    "at least four weeks apart",
  ],
  // Clinical eligibility (section 5) and the consultation requirements (section 2).
  "/consultation": [
    "45-minute video call",
    "at least four weeks apart, both below 12 nmol/L",
    "before 10am",
    "Total testosterone, free testosterone, LH, FSH and SHBG",
    "8 nmol/L",
    "48 hours",
  ],
  "/trt-overview": ["below 12 nmol/L", "at least four weeks apart", "18 or over"],
  "/privacy-policy": [
    "January 2025",
    "1.0",
    "Personal details",
    "Medical information",
    "Digital information",
    "At least 8 years",
    "3 years",
    "12-24 months",
    "within one month",
  ],
  "/cookie-policy": [
    "January 2025",
    "1.0",
    CONSENT_STORAGE_KEY,
    "1 year",
    "For the session",
    "2 years",
    "24 hours",
  ],
  "/terms-of-service": [
    "January 2025",
    "1.0",
    "Effective:",
    "apply once our services launch after regulatory approval",
    "over 18 and UK resident",
    "45-60 minutes",
    "at least 48 hours before your appointment",
    "At least two pre-treatment blood tests",
    "6-month minimum term",
    "rolling monthly",
    "30 days' cancellation notice",
    "discount",
    "refund half the annual fee",
    "before 11am",
    "no exercise for 48 hours",
    "2-4 hours after application",
    "2 hours after application",
    "two tests (x2)",
    "1 month to 6 weeks",
    "at 4 months",
    "at 7 months",
    "twice a year",
    "over one month",
    "one month's notice",
  ],
  "/shipping-policy": [
    "January 2025",
    "1.0",
    "Standard",
    "Free",
    "Up to 7 working days",
    "Priority",
    "£1.99",
    "2-4 working days",
    "Tracked",
    "£5.99",
    "1-2 working days",
    "between 8am and 9pm, excluding bank holidays",
    "fit through a letterbox",
  ],
  "/refund-policy": [
    "January 2025",
    "1.0",
    "within 14 days of the order date",
    "full refund",
    "£6 including VAT",
    "the kit is activated",
    "the sample has been sent",
    "the 14 days have passed",
    "within 10 working days to the original payment method",
    "gift card",
    "Extra postage you chose is non-refundable once the kit has been despatched",
    "free retest",
    "venous sample",
    "after two failures",
  ],
  // Built in app/routes/tools/pricing.tsx.
  "/pricing": [
    "£149",
    "45-minute",
    "£29",
    "£79",
    "£35",
    "£32",
    "£28",
    "£10",
    "£60",
    "£6.50",
    "£30",
    "£52",
    "£39",
    "£43",
    "£1,485",
    "£1,140",
    "6-8 weeks",
    "up to 12 months",
  ],
};

for (const [size, viewport] of Object.entries(viewports)) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport });

    for (const path of allPages) {
      test(`${path} (${size})`, async ({ page, context }) => {
        await seedConsent(context);
        const csp = await watchCsp(page);
        const weights = weigh(page);
        const response = await openPage(page, path);
        await page.waitForLoadState("networkidle");
        const at = `${path} at ${viewport.width}px`;

        const weight = await weights();
        const jsBudget = hydratedPaths.includes(path) ? budgets.js.hydrated : budgets.js.content;
        const kb = (bytes: number) => bytes / 1024;
        console.log(
          `weight ${at}: JS ${kb(weight.js).toFixed(1)} KB, CSS ${kb(weight.css).toFixed(1)} KB, ` +
            `HTML ${kb(weight.html).toFixed(1)} KB, ${weight.files} files`,
        );
        expect.soft(weight.html, `${at} loads its HTML`).toBeGreaterThan(0);
        expect.soft(weight.js, `${at} loads JavaScript`).toBeGreaterThan(0);
        expect.soft(kb(weight.js), `${at}: JavaScript KB gzipped`).toBeLessThanOrEqual(jsBudget);
        expect.soft(kb(weight.css), `${at}: CSS KB gzipped`).toBeLessThanOrEqual(budgets.css);
        expect.soft(kb(weight.html), `${at}: HTML KB gzipped`).toBeLessThanOrEqual(budgets.html);

        expect.soft(await axeViolations(page), `axe violations on ${at}`).toEqual([]);
        expect.soft(await classConflicts(page), `class conflicts on ${at}`).toEqual([]);

        expect.soft(await csp.violations(), `CSP violations on ${at}`).toEqual([]);
        expect.soft(csp.consoleProblems, `CSP complaints on ${at}`).toEqual([]);
        if (path !== notFoundPath) {
          expect
            .soft(response?.headers()["content-security-policy"], `${path}: script hashes`)
            .toMatch(/'sha256-/);
        }

        const untyped = await page.evaluate(() =>
          [...document.querySelectorAll("button:not([type])")].map(
            (b) => b.outerHTML.slice(0, 120) || "<button>",
          ),
        );
        expect.soft(untyped, `buttons without a type on ${at}`).toEqual([]);

        const banner = page.getByRole("region", { name: "Regulatory status" });
        await expect.soft(banner).toHaveText("Services Available Upon CQC Approval");
        expect
          .soft(await banner.boundingBox(), `${at}: the banner`)
          .toMatchObject({ y: 0, height: 40 });
        expect
          .soft(await page.locator("header").first().boundingBox(), `${at}: the header`)
          .toMatchObject({ y: 40, height: 64 });
        const heading = staticRoutes.find((r) => r.path === path)?.heading;
        const h1 = page.getByRole("main").getByRole("heading", { level: 1 });
        if (heading) await expect.soft(h1, `${path}: its heading`).toHaveText(heading);

        if (size !== "desktop") return;
        if (sitemapPaths.includes(path)) await checkHead(page, path);
        if (path in pages) await checkPageInfo(page, path as PagePath);
        for (const figure of figures[path] ?? []) {
          await expect
            .soft(page.getByRole("main"), `${path} shows "${figure}"`)
            .toContainText(figure);
        }
      });
    }
  });
}
