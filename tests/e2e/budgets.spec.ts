/**
 * Page-weight budgets on the production build. Each page is loaded once in a fresh
 * browser context, as a first-time visitor on a phone would load it, and every
 * document, script and stylesheet it fetches is weighed gzipped (level 9, as the
 * precompressed .gz files are). The figures are printed as a table.
 */
import { gzipSync } from "node:zlib";

import { type Response, expect, test } from "@playwright/test";

import { allPages, openPage, viewports } from "./support/site.ts";

/** Targets in KB (1 KB = 1024 bytes) of gzipped bytes, from issue 6. */
const targets = { js: 130, css: 15, html: 30 } as const;
/**
 * What the test enforces. CSS and HTML are held to their targets. JavaScript is held to
 * an interim ceiling, because the Radix primitives the site must use (navigation menu,
 * accordions, radio group) put every page above 130 KB today; the ceiling stops further
 * growth while the work in docs/decisions/050 brings pages down to the target.
 */
const budgets = { js: 190, css: targets.css, html: targets.html } as const;
type Kind = keyof typeof budgets;

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
  test.setTimeout(120_000);
  const rows: { path: string; js: number; css: number; html: number; files: number }[] = [];

  for (const path of allPages) {
    const context = await browser.newContext({ viewport: viewports.mobile });
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
    rows.push({ path, ...totals });
    await context.close();
  }

  const width = Math.max(...rows.map((r) => r.path.length));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i ? c.padStart(9) : c.padEnd(width))).join(" ");
  console.log(
    [
      "First-load weight per page, KB gzipped:",
      line(["page", "JS", "CSS", "HTML", "files"]),
      line(["target", `${targets.js}`, `${targets.css}`, `${targets.html}`, ""]),
      line(["enforced", `${budgets.js}`, `${budgets.css}`, `${budgets.html}`, ""]),
      ...rows.map((r) => line([r.path, kb(r.js), kb(r.css), kb(r.html), String(r.files)])),
      `Pages over the ${targets.js} KB JavaScript target: ${
        rows
          .filter((r) => r.js / 1024 > targets.js)
          .map((r) => r.path)
          .join(", ") || "none"
      }`,
    ].join("\n"),
  );

  for (const row of rows) {
    expect(row.js, `${row.path} loads JavaScript`).toBeGreaterThan(0);
    expect(row.html, `${row.path} loads its HTML`).toBeGreaterThan(0);
    for (const kind of Object.keys(budgets) as Kind[]) {
      expect
        .soft(row[kind] / 1024, `${row.path}: ${kind} KB gzipped (budget ${budgets[kind]})`)
        .toBeLessThanOrEqual(budgets[kind]);
    }
  }
});
