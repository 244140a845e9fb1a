/**
 * Code that loads when the visitor reaches for it (decision 053): the desktop and phone
 * menus, the FAQ and treatment accordions and the quiz ship as prerendered stand-ins, and
 * their Radix code arrives on first pointing, focus or tap. These tests check that a first
 * visit does not fetch that code, that intent does, and that a press made while the code
 * is still on its way is kept rather than lost.
 */
import { type Page, type Request, expect, test } from "@playwright/test";

import { openPage, seedConsent, viewports } from "./support/site.ts";
import { faqGroups } from "../../app/content/faq.ts";

const onDemandChunks = [
  "desktop-nav-menu",
  "mobile-nav-menu",
  "radix-accordion",
  "interactive-quiz",
] as const;
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

test.describe("on a phone", () => {
  test.use({ viewport: viewports.mobile });

  test("a first visit loads none of it; a tap on the menu loads the menu", async ({ page }) => {
    const fetched = watchChunks(page);
    for (const path of ["/faq", "/quiz", "/treatment-options"]) await openPage(page, path);
    expect([...fetched]).toEqual([]);

    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("button", { name: "Close menu" })).toBeVisible();
    expect([...fetched]).toEqual(["mobile-nav-menu"]);
  });

  test("a tap on the menu toggle before its code arrives opens the menu", async ({ page }) => {
    await openPage(page, "/");
    const held = await holdChunk(page, "mobile-nav-menu");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect.poll(held.wasRequested).toBe(true);
    held.release();
    const toggle = page.getByRole("button", { name: "Close menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Services" }),
    ).toBeVisible();
  });

  test("an answer picked before the quiz code arrives is kept", async ({ page }) => {
    await openPage(page, "/quiz");
    const held = await holdChunk(page, "interactive-quiz");
    await page.getByRole("radio", { name: "Sometimes" }).click();
    await expect.poll(held.wasRequested).toBe(true);
    held.release();
    await expect(page.getByRole("radio", { name: "Sometimes" })).toHaveAttribute(
      "data-state",
      "checked",
    );
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
    await expect(page.getByText("10% Complete")).toBeVisible();
  });

  test("FAQ answers open natively, one at a time, while Radix is on its way", async ({ page }) => {
    await openPage(page, "/faq");
    const held = await holdChunk(page, "radix-accordion");
    const [first, second] = faqGroups[0]!.items;
    const group = page.getByRole("region", { name: faqGroups[0]!.title, exact: true });
    await group.locator("summary", { hasText: first!.question }).click();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeVisible();
    await group.locator("summary", { hasText: second!.question }).click();
    await expect(group.getByText(second!.answer[0]!, { exact: true })).toBeVisible();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeHidden();

    // Radix takes over with the same answer open.
    held.release();
    const trigger = group.getByRole("button", { name: second!.question });
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await expect(group.getByText(second!.answer[0]!, { exact: true })).toBeVisible();
    await expect(group.locator("summary")).toHaveCount(0);
  });
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

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: viewports.mobile });

  test("every FAQ answer can be read, one open at a time", async ({ page }) => {
    await page.goto("/faq");
    const group = page.getByRole("region", { name: faqGroups[0]!.title, exact: true });
    const [first, second] = faqGroups[0]!.items;
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeHidden();
    await group.locator("summary", { hasText: first!.question }).click();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeVisible();
    await group.locator("summary", { hasText: second!.question }).click();
    await expect(group.getByText(second!.answer[0]!, { exact: true })).toBeVisible();
    await expect(group.getByText(first!.answer[0]!, { exact: true })).toBeHidden();
  });
});
