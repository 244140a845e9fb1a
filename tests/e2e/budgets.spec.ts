/**
 * Page-weight budgets on the production build. Each page is loaded once in a fresh
 * browser context, as a first-time visitor would load it, on a phone and on a desktop
 * screen, and every document, script and stylesheet it fetches until the network is
 * quiet is weighed gzipped (level 9, as the precompressed .gz files are). JavaScript
 * counts the inline scripts too (the page script in <head>, React Router's context),
 * gzipped on their own. The figures are printed as a table.
 *
 * JavaScript budgets are per route (issue 22, decision 105): a content page hydrates
 * nothing and stays within 15 KB; a page that hydrates (quiz, pricing, registration)
 * carries React, React DOM and React Router and has its own, larger budget.
 */
import { gzipSync } from "node:zlib";

import { type Response, expect, test } from "@playwright/test";

import { allPages, hydratedPaths, openPage, viewports } from "../support/site.ts";

/** Budgets in KB (1 KB = 1024 bytes) of gzipped bytes: CSS and HTML from issue 6. */
const budgets = { css: 15, html: 30 } as const;
/** JavaScript: a content page, and a page whose route hydrates. */
const jsBudgets = { content: 15, hydrated: 110 } as const;
const jsBudgetOf = (path: string) =>
  hydratedPaths.includes(path) ? jsBudgets.hydrated : jsBudgets.content;
type Kind = keyof typeof budgets | "js";

function kindOf(response: Response): Kind | null {
  const type = response.request().resourceType();
  const contentType = response.headers()["content-type"] ?? "";
  if (type === "script" || contentType.includes("javascript")) return "js";
  if (type === "stylesheet" || contentType.includes("text/css")) return "css";
  if (type === "document" || contentType.includes("text/html")) return "html";
  return null;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

test("every page stays within its JavaScript, CSS and HTML budgets", async ({ browser }) => {
  // Every page at two sizes, one after another: minutes when two shared cores are slow.
  test.setTimeout(360_000);
  const rows: { path: string; js: number; css: number; html: number; files: number }[] = [];

  const loads = Object.entries(viewports).flatMap(([screen, viewport]) =>
    allPages.map((path) => ({ screen, viewport, path })),
  );
  for (const { screen, viewport, path } of loads) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const pending: Promise<void>[] = [];
    const totals = { js: 0, css: 0, html: 0, files: 0 };
    const seen = new Set<string>();
    page.on("response", (response) => {
      const kind = kindOf(response);
      if (!kind || seen.has(response.url())) return;
      seen.add(response.url());
      pending.push(
        response.body().then((body) => {
          totals[kind] += gzipSync(body, { level: 9 }).length;
          totals.files += 1;
        }),
      );
    });
    await openPage(page, path);
    await Promise.all(pending);
    const inline = await page.evaluate(() =>
      Array.from(document.querySelectorAll("script:not([src])"))
        .filter((script) =>
          ["", "module", "text/javascript"].includes(script.getAttribute("type") ?? ""),
        )
        .map((script) => script.textContent ?? ""),
    );
    for (const source of inline) totals.js += gzipSync(source, { level: 9 }).length;
    rows.push({ path: `${path} (${screen})`, ...totals });
    await context.close();
  }

  const width = Math.max(...rows.map((r) => r.path.length));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i ? c.padStart(9) : c.padEnd(width))).join(" ");
  console.log(
    [
      "First-load weight per page, KB gzipped:",
      line(["page", "JS", "CSS", "HTML", "files"]),
      line([
        "budget",
        `${jsBudgets.content}/${jsBudgets.hydrated}`,
        `${budgets.css}`,
        `${budgets.html}`,
        "",
      ]),
      ...rows.map((r) => line([r.path, kb(r.js), kb(r.css), kb(r.html), String(r.files)])),
      `Heaviest JavaScript: ${kb(Math.max(...rows.map((r) => r.js)))} KB`,
    ].join("\n"),
  );

  for (const row of rows) {
    expect(row.js, `${row.path} loads JavaScript`).toBeGreaterThan(0);
    expect(row.html, `${row.path} loads its HTML`).toBeGreaterThan(0);
    const path = row.path.replace(/ \(\w+\)$/, "");
    expect
      .soft(row.js / 1024, `${row.path}: JavaScript KB gzipped (budget ${jsBudgetOf(path)})`)
      .toBeLessThanOrEqual(jsBudgetOf(path));
    for (const kind of Object.keys(budgets) as (keyof typeof budgets)[]) {
      expect
        .soft(row[kind] / 1024, `${row.path}: ${kind} KB gzipped (budget ${budgets[kind]})`)
        .toBeLessThanOrEqual(budgets[kind]);
    }
  }
});
