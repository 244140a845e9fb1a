import type { Page } from "@playwright/test";

/**
 * Lays out what `content-visibility: auto` skips until it is near the viewport (decision 132),
 * for what looks at the whole page at once: axe's contrast, the reflow check, a full-page
 * screenshot (which does not scroll, so skipped sections would come out blank).
 */
export async function renderSkippedContent(page: Page) {
  await page.evaluate(() => {
    for (const element of document.querySelectorAll<HTMLElement>("body *")) {
      if (getComputedStyle(element).contentVisibility === "auto") {
        element.style.contentVisibility = "visible";
      }
    }
  });
}
