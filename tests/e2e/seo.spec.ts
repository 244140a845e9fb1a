/**
 * Findability: robots.txt and the sitemap come from the route table, titles and
 * descriptions are unique, the clinic and the FAQ carry their structured data. Each page's
 * canonical URL, social tags and image, and JSON-LD: every-page.spec.ts.
 */
import { type Page, expect, test } from "@playwright/test";

import { sitemapPaths } from "../../app/prerendered-paths.ts";
import { registrationPaths } from "../../contract/registrations.ts";
import { notFoundPath, staticPaths } from "../support/site.ts";

/** The public origin the build was made for, as the sitemap states it. */
async function siteOrigin(page: Page): Promise<string> {
  const xml = await (await page.request.get("/sitemap.xml")).text();
  const first = /<loc>([^<]+)<\/loc>/.exec(xml)?.[1];
  expect(first, "the sitemap has a URL").toBeTruthy();
  return new URL(first ?? "").origin;
}

/** Every JSON-LD block of the page, parsed. A block that is not JSON fails the test. */
async function jsonLdBlocks(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((text, i) => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`JSON-LD block ${i} does not parse: ${String(error)}\n${text}`);
    }
  });
}

/** The structured-data nodes of a page, flattening @graph containers. */
function nodes(blocks: Record<string, unknown>[]): Record<string, unknown>[] {
  return blocks.flatMap((b) =>
    Array.isArray(b["@graph"]) ? (b["@graph"] as Record<string, unknown>[]) : [b],
  );
}

function hasType(node: Record<string, unknown>, type: string): boolean {
  const t = node["@type"];
  return Array.isArray(t) ? t.includes(type) : t === type;
}

test("robots.txt allows crawling and points at the sitemap", async ({ page }) => {
  const response = await page.request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain");
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).not.toMatch(/^Disallow: \/$/m);
  const origin = await siteOrigin(page);
  expect(text).toContain(`Sitemap: ${origin}/sitemap.xml`);
});

test("the sitemap lists every page of the route table and nothing else", async ({ page }) => {
  const response = await page.request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/xml/);
  const xml = await response.text();
  const listed = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? "").pathname);
  expect(listed.toSorted()).toEqual([...sitemapPaths].toSorted());
  expect(sitemapPaths).not.toContain(registrationPaths.thankYou);
});

test("the thank-you page the form redirects to is not for search engines", async ({ page }) => {
  await page.goto(registrationPaths.thankYou);
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.locator('head link[rel="canonical"]')).toHaveCount(0);
});

test("titles and descriptions are unique across pages", async ({ request }) => {
  const seen = new Map<string, string>();
  for (const path of staticPaths) {
    const html = await (await request.get(path)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
    for (const value of [title, description]) {
      expect(
        seen.get(value),
        `"${value}" on ${path} is also on ${seen.get(value)}`,
      ).toBeUndefined();
      seen.set(value, path);
    }
  }
});

test("the social image is a 1200 x 630 PNG of modest size", async ({ request }) => {
  const response = await request.get("/og-image.png");
  expect(response.status()).toBe(200);
  const body = await response.body();
  // PNG signature, then the IHDR chunk: width and height as 32-bit big-endian integers.
  expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(body.readUInt32BE(16)).toBe(1200);
  expect(body.readUInt32BE(20)).toBe(630);
  expect(body.length, "bytes").toBeLessThan(150 * 1024);
});

test("the home and contact pages describe the clinic as a MedicalClinic", async ({ page }) => {
  for (const path of ["/", "/contact"]) {
    await page.goto(path);
    const clinic = nodes(await jsonLdBlocks(page)).find((n) => hasType(n, "MedicalClinic"));
    expect(clinic, `MedicalClinic JSON-LD on ${path}`).toBeDefined();
    expect(clinic?.["name"], "the clinic's name").toEqual(expect.any(String));
    expect(clinic?.["url"], "the clinic's URL").toEqual(expect.stringMatching(/^https?:\/\//));
    expect(clinic?.["address"], "the clinic's address").toBeDefined();
  }
});

test("the FAQ page's questions are marked up as an FAQPage", async ({ page }) => {
  await page.goto("/faq");
  const faq = nodes(await jsonLdBlocks(page)).find((n) => hasType(n, "FAQPage"));
  expect(faq, "FAQPage JSON-LD on /faq").toBeDefined();
  const questions = (faq?.["mainEntity"] ?? []) as Record<string, unknown>[];
  expect(questions.length, "questions in the FAQPage").toBeGreaterThan(0);
  for (const q of questions) {
    expect(hasType(q, "Question")).toBe(true);
    expect(q["name"]).toEqual(expect.any(String));
    const answer = q["acceptedAnswer"] as Record<string, unknown> | undefined;
    expect(answer && hasType(answer, "Answer"), `answer to "${String(q["name"])}"`).toBe(true);
    expect(answer?.["text"]).toEqual(expect.stringMatching(/\S/));
  }
  // Each marked-up question is one a visitor can see on the page.
  const first = String(questions[0]?.["name"] ?? "");
  await expect(page.getByRole("main").getByText(first, { exact: true }).first()).toBeAttached();
});

test("the 404 page asks search engines not to index it", async ({ page }) => {
  await page.goto(notFoundPath);
  await expect(page.locator('head meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator('head link[rel="canonical"]')).toHaveCount(0);
});
