/**
 * How the production server delivers the site: long-lived caching for hashed assets,
 * revalidation for HTML, precompressed bodies, clean URLs, and the stylesheet inlined in
 * prerendered pages (docs/decisions/067; no third-party requests: every-page.spec.ts).
 */
import { type APIRequestContext, expect, test } from "@playwright/test";

import { staticRoutes, waitForHydration } from "../support/site.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The hashed script and stylesheet URLs a hydrated page's HTML refers to (content pages
 * ship no module script: docs/decisions/105). The script is the React chunk every island
 * loads: files under 512 bytes, like an island's entry, are not worth compressing.
 */
async function hashedAssets(request: APIRequestContext) {
  const html = await (await request.get("/pricing")).text();
  const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] ?? "",
  );
  expect(assets.length, "/pricing links hashed assets").toBeGreaterThan(0);
  return {
    script: assets.find((a) => /\/react-[\w-]+\.js$/.test(a)) ?? "",
    stylesheet: assets.find((a) => a.endsWith(".css")) ?? "",
  };
}

test("hashed assets are cached for a year and sent as brotli or gzip", async ({ request }) => {
  const { script, stylesheet } = await hashedAssets(request);
  for (const asset of [script, stylesheet]) {
    const br = await request.get(asset, { headers: { "accept-encoding": "br" } });
    expect(br.status(), asset).toBe(200);
    expect(br.headers()["cache-control"], asset).toBe(IMMUTABLE);
    expect(br.headers()["content-encoding"], asset).toBe("br");
    expect(br.headers()["vary"]?.toLowerCase(), asset).toContain("accept-encoding");

    const gzip = await request.get(asset, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers()["content-encoding"], asset).toBe("gzip");
    expect(gzip.headers()["cache-control"], asset).toBe(IMMUTABLE);

    // A client that accepts neither still gets the file, uncompressed.
    const plain = await request.get(asset, { headers: { "accept-encoding": "identity" } });
    expect(plain.status(), asset).toBe(200);
    expect(plain.headers()["content-encoding"], asset).toBeUndefined();
    expect((await plain.body()).equals(await br.body()), `${asset} decodes the same`).toBe(true);
  }
});

test("pages answer at clean URLs, revalidated each visit, precompressed", async ({ request }) => {
  for (const path of ["/", "/team", "/faq"]) {
    const response = await request.get(path, {
      headers: { "accept-encoding": "br, gzip" },
      maxRedirects: 0,
    });
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toContain("text/html");
    const cacheControl = response.headers()["cache-control"] ?? "";
    expect(cacheControl, `${path} revalidates`).toMatch(/no-cache|must-revalidate|max-age=0/);
    expect(cacheControl, `${path} is not cached as immutable`).not.toContain("immutable");
    expect(response.headers()["content-encoding"], path).toBe("br");
  }
});

test("every answer rendered per request says how it may be cached", async ({
  request,
  baseURL,
}) => {
  const form = { "content-type": "application/x-www-form-urlencoded", origin: baseURL ?? "" };
  const typed = { headers: form, data: "name=Sam+Carter&email=not-an-address&website=" };
  const foreign = { headers: { ...form, origin: "https://evil.example" } };
  const cases: Array<[string, string, number, string, Partial<typeof typed>?]> = [
    ["a page with a query", "GET /pricing?treatment=sustanon", 200, "no-cache"],
    ["its HEAD", "HEAD /pricing?treatment=sustanon", 200, "no-cache"],
    ["the 404 page", "GET /no-such-page", 404, "no-cache"],
    ["a .data answer", "GET /faq.data", 200, "no-cache"],
    ["a .data 404", "GET /no-such-page.data", 404, "no-cache"],
    ["an email link's page", "GET /unsubscribe?token=x", 400, "no-store"],
    ["the form sent back with what was typed", "POST /register-interest", 400, "no-store", typed],
    ["a POST to a page without a form", "POST /faq", 405, "no-store", { headers: form }],
    ["the guard's refusal", "POST /register-interest", 403, "no-store", foreign],
  ];
  for (const [label, target, status, cacheControl, options] of cases) {
    const [method, path] = target.split(" ");
    const response = await request.fetch(path!, { method, maxRedirects: 0, ...options });
    expect(response.status(), label).toBe(status);
    expect(response.headers()["cache-control"], label).toBe(cacheControl);
  }
});

test("prerendered pages carry their stylesheet inline, fetch no CSS file and hydrate cleanly", async ({
  page,
}) => {
  // Every page in turn.
  test.slow();
  const stylesheets: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "stylesheet" || /\.css(\?|$)/.test(request.url())) {
      stylesheets.push(request.url());
    }
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));

  for (const { path, heading } of staticRoutes) {
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    const head = await page.evaluate(() => ({
      inline: document.head.querySelectorAll("style").length,
      links: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
        (link) => link.disabled,
      ),
      // Styled by the inlined sheet: the heading uses the serif face, not the browser default.
      headingFont: getComputedStyle(document.querySelector("h1") as Element).fontFamily,
    }));
    expect(head.inline, path).toBeGreaterThan(0);
    // React adopted the disabled link when it hydrated and did not add one of its own.
    expect(head.links, path).toEqual([true]);
    expect(head.headingFont, path).toContain("Source Serif 4");
  }
  // The next page carries its sheet inline too: nothing to fetch.
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  expect(stylesheets).toEqual([]);
  expect(errors).toEqual([]);
});
