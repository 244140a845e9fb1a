/**
 * Code that loads when the visitor reaches for it (decisions 053 and 054): the desktop
 * menu ships as a prerendered stand-in, and its Radix NavigationMenu arrives on first
 * pointing, focus or click. These tests check that a first visit does not fetch that
 * code, that intent does, and that a press made while the code is on its way is kept.
 * (The phone menu, the accordions and the quiz are native HTML now and load nothing.)
 */
import { type Page, type Request, expect, test } from "@playwright/test";

import { openPage, seedConsent, viewports } from "./support/site.ts";

const onDemandChunks = ["desktop-nav-menu"] as const;
type Chunk = (typeof onDemandChunks)[number];

const chunkOf = (request: Request): Chunk | undefined =>
  onDemandChunks.find((name) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(request.url()));

/** Records which on-demand chunks the page has asked for. */
function watchChunks(page: Page): Set<Chunk> {
  const fetched = new Set<Chunk>();
  page.on("request", (request) => {
    const chunk = chunkOf(request);
    if (chunk) fetched.add(chunk);
  });
  return fetched;
}

/** Holds back one chunk until `release` is called, as a slow connection would. */
async function holdChunk(page: Page, name: Chunk) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let requested = false;
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), async (route) => {
    requested = true;
    await released;
    await route.continue();
  });
  return { release, wasRequested: () => requested };
}

test.beforeEach(async ({ context }) => {
  await seedConsent(context);
});

test("a phone never loads the desktop menu", async ({ page }) => {
  await page.setViewportSize(viewports.mobile);
  const fetched = watchChunks(page);
  for (const path of ["/", "/faq", "/quiz", "/treatment-options"]) await openPage(page, path);
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect([...fetched]).toEqual([]);
});

test.describe("on a desktop", () => {
  test.use({ viewport: viewports.desktop });

  test("a first visit loads none of it; pointing at the menu loads it", async ({ page }) => {
    const fetched = watchChunks(page);
    await openPage(page, "/");
    expect([...fetched]).toEqual([]);

    await page.getByRole("navigation", { name: "Main" }).getByText("About").hover();
    await expect.poll(() => [...fetched]).toEqual(["desktop-nav-menu"]);
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Our Approach" }),
    ).toBeVisible();
  });

  test("a click on a submenu before its code arrives opens it", async ({ page }) => {
    await openPage(page, "/");
    const held = await holdChunk(page, "desktop-nav-menu");
    const about = page.getByRole("navigation", { name: "Main" }).getByRole("button", {
      name: "About",
    });
    await about.click();
    await expect.poll(held.wasRequested).toBe(true);
    held.release();
    await expect(about).toHaveAttribute("aria-expanded", "true");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Meet the Team" }),
    ).toBeVisible();
  });
});
