/**
 * Crawls the production build from / and follows every internal link. Each internal
 * page must answer 200, and a link with a #fragment must find that id on its page.
 * Assets the pages load (stylesheets, scripts, icons) must answer 200 too. Links that
 * are not followed (other origins, mailto:, tel:) are listed in the test's annotations.
 */
import { expect, test } from "@playwright/test";

type Found = { url: URL; from: string };

/** href and src values of the tags a browser would follow or load. */
function extractUrls(html: string): { links: string[]; assets: string[] } {
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, "&")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"');
  const links = [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/gi)].map((m) => decode(m[1]!));
  const assets = [
    ...[...html.matchAll(/<link\b[^>]*?\shref="([^"]*)"/gi)].map((m) => m[0]),
    ...[...html.matchAll(/<(?:script|img|source)\b[^>]*?\ssrc="([^"]*)"/gi)].map((m) => m[0]),
  ]
    // Canonical and og:url point at the public origin (SITE_URL), not at this server.
    .filter((tag) => !/rel="(canonical|alternate)"/.test(tag))
    .map((tag) => decode(/\s(?:href|src)="([^"]*)"/.exec(tag)?.[1] ?? ""));
  return { links, assets };
}

test("every internal link on the site answers 200", async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const origin = new URL(baseURL!).origin;
  const pages = new Map<string, string>(); // path -> HTML
  const queue: Found[] = [{ url: new URL("/", origin), from: "(start)" }];
  const fragments: { path: string; id: string; from: string }[] = [];
  const assets = new Map<string, string>(); // path -> first page using it
  const notFollowed = new Set<string>();
  const failures: string[] = [];

  while (queue.length > 0) {
    const { url, from } = queue.shift()!;
    const path = url.pathname + url.search;
    if (pages.has(path)) continue;
    const response = await request.get(path, { maxRedirects: 0 });
    if (response.status() !== 200) {
      failures.push(`${path} answered ${response.status()} (linked from ${from})`);
      pages.set(path, "");
      continue;
    }
    const html = await response.text();
    pages.set(path, html);

    const found = extractUrls(html);
    for (const href of found.links) {
      const target = new URL(href, url);
      if (target.protocol !== "http:" && target.protocol !== "https:") {
        notFollowed.add(`${target.protocol} ${href}`);
        continue;
      }
      if (target.origin !== origin) {
        notFollowed.add(`external ${href}`);
        continue;
      }
      if (target.hash) {
        fragments.push({
          path: target.pathname + target.search,
          id: decodeURIComponent(target.hash.slice(1)),
          from: path,
        });
      }
      target.hash = "";
      queue.push({ url: target, from: path });
    }
    for (const src of found.assets) {
      const target = new URL(src, url);
      if (target.origin !== origin) {
        notFollowed.add(`external asset ${src}`);
        continue;
      }
      if (!assets.has(target.pathname)) assets.set(target.pathname, path);
    }
  }

  for (const [asset, from] of assets) {
    const response = await request.get(asset);
    if (response.status() !== 200) {
      failures.push(`asset ${asset} answered ${response.status()} (used by ${from})`);
    }
  }

  for (const { path, id, from } of fragments) {
    const html = pages.get(path) ?? "";
    if (html && !html.includes(`id="${id}"`)) {
      failures.push(`${path}#${id} has no element with that id (linked from ${from})`);
    }
  }

  const skipped = [...notFollowed].sort();
  const { annotations } = test.info();
  annotations.push(
    { type: "pages crawled", description: String(pages.size) },
    { type: "assets checked", description: String(assets.size) },
    { type: "fragments checked", description: String(fragments.length) },
    ...skipped.map((d) => ({ type: "not followed", description: d })),
  );
  console.log(
    `link check: ${pages.size} pages, ${assets.size} assets, ${fragments.length} fragments; not followed: ${skipped.join(", ") || "none"}`,
  );

  expect(failures).toEqual([]);
  // Every page of the route table is reachable by links from the home page.
  const everyPage = [
    ["/our-approach", "/team", "/trt-overview", "/faq", "/services", "/treatment-options"],
    ["/consultation", "/contact", "/quiz", "/pricing", "/register-interest"],
    ["/privacy-policy", "/terms-of-service", "/cookie-policy", "/shipping-policy"],
    ["/refund-policy"],
  ].flat();
  for (const path of everyPage) {
    expect(pages.has(path), `${path} is reachable from /`).toBe(true);
  }
});
