/** axe-core's WCAG 2.2 AA check, as the a11y specs run it (the public pages and the console). */
import AxeBuilder from "@axe-core/playwright";
import { type Page, expect } from "@playwright/test";

import { classConflicts } from "./class-conflicts.ts";

const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe on the page (or part of it) and fails with rule, targets and summary; then
 * checks the same part for class lists in conflict.
 */
export async function expectNoViolations(
  page: Page,
  label: string,
  include?: string,
  exclude?: string,
) {
  let builder = new AxeBuilder({ page }).withTags(tags);
  if (include) builder = builder.include(include);
  if (exclude) builder = builder.exclude(exclude);
  const { violations } = await builder.analyze();
  const report = violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact ?? "?"}) ${n.target.join(" ")}\n    ${n.failureSummary?.replaceAll("\n", "\n    ") ?? v.help}`,
    ),
  );
  expect(report, `axe violations on ${label}`).toEqual([]);
  expect(await classConflicts(page, include), `class conflicts on ${label}`).toEqual([]);
}
