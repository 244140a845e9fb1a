import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/**
 * The decision records (docs/decisions/README.md): each file is `NNN-title.md`, opens
 * with `# NNN. Title`, a date and one short status, and every link from one record to
 * another leads to a record that exists. A superseded record names the one current record
 * that replaced it, so a newcomer never follows a chain; the README indexes every current
 * record, and the current records stay short enough to read in one sitting.
 */
const dir = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(dir)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .sort();
const textOf = (name: string) => readFileSync(path.join(dir, name), "utf8");
const readme = textOf("README.md");

const MAX_STATUS_LINE = 100;
const MAX_CURRENT_WORDS = 20_000;
const SUPERSEDED = /^- Status: superseded by \[(\d{3})\]\((\d{3}-[^)\s]+\.md)\)$/;

const statusLinesOf = (name: string) =>
  textOf(name)
    .split("\n")
    .filter((line) => line.startsWith("- Status:"));
const isSuperseded = (name: string) =>
  statusLinesOf(name).some((line) => line.startsWith("- Status: superseded"));
const current = records.filter((name) => !isSuperseded(name));
const superseded = records.filter(isSuperseded);
const wordsOf = (name: string) => textOf(name).split(/\s+/).filter(Boolean).length;

const linksIn = (text: string) =>
  [...text.matchAll(/\]\(((?:\.\/)?\d{3}-[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((m) =>
    (m[1] ?? "").replace(/^\.\//, ""),
  );

describe("decision records", () => {
  it("are there", () => {
    expect(records.length).toBeGreaterThan(50);
  });

  it.each(records)("%s has its number, a date and one status", (name) => {
    const lines = textOf(name).split("\n");
    expect(lines[0], "the title line").toMatch(new RegExp(`^# ${name.slice(0, 3)}\\. \\S`));
    const head = lines.slice(0, 6);
    expect(head.some((l) => /^- Date: \d{4}-\d{2}-\d{2}$/.test(l))).toBe(true);
    expect(head.some((l) => /^- Status: \S/.test(l))).toBe(true);
    expect(statusLinesOf(name), "status lines").toHaveLength(1);
  });

  it.each(records)(`%s has a status line of at most ${MAX_STATUS_LINE} characters`, (name) => {
    for (const line of statusLinesOf(name)) {
      expect(line.length, line).toBeLessThanOrEqual(MAX_STATUS_LINE);
    }
  });

  it.each(records)("%s links only to records that exist", (name) => {
    const missing = linksIn(textOf(name)).filter((target) => !records.includes(target));
    expect(missing).toEqual([]);
  });

  it.each(superseded)("%s names the current record that replaced it", (name) => {
    const [status = ""] = statusLinesOf(name);
    const match = SUPERSEDED.exec(status);
    expect(match, `"${status}" should read "- Status: superseded by [NNN](NNN-title.md)"`).not.toBe(
      null,
    );
    const [, number = "", target = ""] = match ?? [];
    expect(target.slice(0, 3), "the link and its number").toBe(number);
    expect(target > name, "the replacement is a later record").toBe(true);
    expect(current, "the replacement is current, not superseded itself").toContain(target);
  });

  it("README.md links every current record, and only records that exist", () => {
    const linked = new Set(linksIn(readme));
    expect(current.filter((name) => !linked.has(name))).toEqual([]);
    expect([...linked].filter((name) => !records.includes(name))).toEqual([]);
  });

  it(`current records total at most ${MAX_CURRENT_WORDS} words`, () => {
    const total = current.reduce((sum, name) => sum + wordsOf(name), 0);
    console.log(
      `decision records: ${current.length} current (${total} words), ${superseded.length} superseded`,
    );
    expect(total).toBeLessThanOrEqual(MAX_CURRENT_WORDS);
  });
});
