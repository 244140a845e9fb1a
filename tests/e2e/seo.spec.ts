/**
 * Findability: robots.txt and the sitemap come from the route table, and the social image
 * is fit to share. Unique titles and descriptions: html-validity.spec.ts; each page's
 * canonical URL, social tags, structured data and noindex: every-page.spec.ts.
 */
import { expect, test } from "@playwright/test";

import { sitemapPaths } from "../../app/prerendered-paths.ts";

test("robots.txt allows crawling and points at the sitemap", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain");
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).not.toMatch(/^Disallow: \/$/m);
  // The public origin the build was made for, as the sitemap states it.
  const xml = await (await request.get("/sitemap.xml")).text();
  const first = /<loc>([^<]+)<\/loc>/.exec(xml)?.[1];
  expect(first, "the sitemap has a URL").toBeTruthy();
  expect(text).toContain(`Sitemap: ${new URL(first ?? "").origin}/sitemap.xml`);
});

test("the sitemap lists every page of the route table and nothing else", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/xml/);
  const xml = await response.text();
  const listed = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? "").pathname);
  expect(listed.toSorted()).toEqual([...sitemapPaths].toSorted());
});

test("the social image is a 1200 x 630 PNG of modest size", async ({ request }) => {
  const response = await request.get("/og-image.png");
  const body = await response.body();
  // PNG signature, then the IHDR chunk: width and height as 32-bit big-endian integers.
  expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(body.readUInt32BE(16)).toBe(1200);
  expect(body.readUInt32BE(20)).toBe(630);
  expect(body.length, "bytes").toBeLessThan(150 * 1024);
});
