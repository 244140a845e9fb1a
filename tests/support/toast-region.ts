/**
 * When sonner's live region and the first toast enter the page. Screen readers announce
 * a toast only if its live region was already in the page when the toast was added, and
 * the region is mounted on the first interaction, not with the page (docs/decisions/051).
 */
import type { BrowserContext, Page } from "@playwright/test";

/** sonner's toast region: a <section> with aria-live, labelled "Notifications alt+T". */
export const toastRegionSelector = 'section[aria-live="polite"][aria-label^="Notifications"]';

type Marks = { region: number | null; firstToast: number | null };

/** Starts recording, before any page script runs, the times both first appear. */
export async function watchToastRegion(context: BrowserContext) {
  await context.addInitScript((regionSelector) => {
    const marks: Marks = { region: null, firstToast: null };
    (window as unknown as { __toastMarks: Marks }).__toastMarks = marks;
    new MutationObserver(() => {
      const now = performance.now();
      if (marks.region === null && document.querySelector(regionSelector)) marks.region = now;
      if (marks.firstToast === null && document.querySelector("[data-sonner-toast]")) {
        marks.firstToast = now;
      }
    }).observe(document, { childList: true, subtree: true });
  }, toastRegionSelector);
}

/** The recorded times (performance.now(), in ms), null for what has not appeared. */
export function toastTimeline(page: Page): Promise<Marks> {
  return page.evaluate(() => (window as unknown as { __toastMarks: Marks }).__toastMarks);
}
