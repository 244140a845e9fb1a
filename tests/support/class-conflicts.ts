/**
 * cn() only joins class names (docs/decisions/052): if an element got two utilities that
 * set the same thing, say a Card's "p-6" and a caller's "p-0", both would reach the page
 * and the stylesheet's order, not the caller, would decide which one shows. This reads the
 * class list of every element as the browser has it and asks the full tailwind-merge,
 * told about the site's theme (app/app.css), whether it would drop any class from it
 * (docs/decisions/125).
 */
import type { Page } from "@playwright/test";
import { extendTailwindMerge } from "tailwind-merge";

const twMerge = extendTailwindMerge({
  extend: {
    theme: {
      text: ["display"],
      radius: ["card", "control"],
      shadow: ["card"],
      spacing: ["banner", "header"],
    },
  },
});

/** The classes tailwind-merge would drop from the list because a later one sets the same thing. */
export function overridden(classes: string): string[] {
  const kept = new Set(twMerge(classes).split(" "));
  return classes.split(/\s+/).filter((c) => c !== "" && !kept.has(c));
}

/**
 * Each distinct class list in the page (or inside `scope`, a selector) that holds two
 * utilities for the same property, as "<tag> dropped: ... in: ...".
 */
export async function classConflicts(page: Page, scope?: string): Promise<string[]> {
  const lists = await page.evaluate((selector) => {
    const root = selector === null ? document.documentElement : document.querySelector(selector);
    if (!root) return [];
    return [root, ...root.querySelectorAll("[class]")].map(
      (el) => `${el.tagName.toLowerCase()}\t${el.getAttribute("class") ?? ""}`,
    );
  }, scope ?? null);
  const conflicts: string[] = [];
  for (const entry of new Set(lists)) {
    const [tag, classes = ""] = entry.split("\t");
    const dropped = overridden(classes);
    if (dropped.length > 0) {
      conflicts.push(`<${tag}> dropped: ${dropped.join(" ")} in: ${classes.trim()}`);
    }
  }
  return conflicts;
}
