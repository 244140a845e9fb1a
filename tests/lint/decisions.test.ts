import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/**
 * The decision records (docs/decisions/README.md): each file is `NNN-title.md`, opens
 * with `# NNN. Title`, a date and one short status, and every link from one record to
 * another leads to a record that exists. The current records sit in docs/decisions/, the
 * superseded ones in docs/decisions/history/; a superseded record names the one current
 * record that replaced it, so a newcomer never follows a chain. The README indexes every
 * current record and lists the history, and the current records stay short enough to read
 * in one sitting.
 */
const dir = path.resolve(import.meta.dirname, "../../docs/decisions");
const historyDir = path.join(dir, "history");
const recordsIn = (folder: string) =>
  readdirSync(folder)
    .filter((name) => /^\d{3}-.+\.md$/.test(name))
    .sort();
const current = recordsIn(dir);
const history = recordsIn(historyDir);
/** Each record by its path from docs/decisions/, e.g. `140-….md` or `history/001-….md`. */
const records = [...current, ...history.map((name) => `history/${name}`)];
const textOf = (record: string) => readFileSync(path.join(dir, record), "utf8");
const readme = textOf("README.md");

const MAX_STATUS_LINE = 100;
const MAX_CURRENT_WORDS = 15_000;
const SUPERSEDED = /^- Status: superseded by \[(\d{3})\]\(\.\.\/(\d{3}-[^)\s]+\.md)\)$/;

const statusLinesOf = (record: string) =>
  textOf(record)
    .split("\n")
    .filter((line) => line.startsWith("- Status:"));
const isSuperseded = (record: string) =>
  statusLinesOf(record).some((line) => line.startsWith("- Status: superseded"));
const wordsOf = (record: string) => textOf(record).split(/\s+/).filter(Boolean).length;

/** The records a text links to, each resolved against the folder of the file it is in. */
const linksIn = (text: string, from: string) =>
  [...text.matchAll(/\]\(((?:\.{1,2}\/)?(?:history\/)?\d{3}-[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map(
    (m) => path.posix.normalize(path.posix.join(path.posix.dirname(from), m[1] ?? "")),
  );
const exists = (record: string) => existsSync(path.join(dir, record));

describe("decision records", () => {
  it("are there", () => {
    expect(current.length).toBeGreaterThan(40);
    expect(history.length).toBeGreaterThan(40);
  });

  it.each(records)("%s has its number, a date and one status", (record) => {
    const lines = textOf(record).split("\n");
    const number = path.basename(record).slice(0, 3);
    expect(lines[0], "the title line").toMatch(new RegExp(`^# ${number}\\. \\S`));
    const head = lines.slice(0, 6);
    expect(head.some((l) => /^- Date: \d{4}-\d{2}-\d{2}$/.test(l))).toBe(true);
    expect(head.some((l) => /^- Status: \S/.test(l))).toBe(true);
    expect(statusLinesOf(record), "status lines").toHaveLength(1);
  });

  it.each(current)(`%s has a status line of at most ${MAX_STATUS_LINE} characters`, (name) => {
    for (const line of statusLinesOf(name)) {
      expect(line.length, line).toBeLessThanOrEqual(MAX_STATUS_LINE);
    }
  });

  it.each(current)("%s is current, not superseded (those live in history/)", (name) => {
    expect(isSuperseded(name)).toBe(false);
  });

  it.each(records)("%s links only to records that exist", (record) => {
    const missing = linksIn(textOf(record), record).filter((target) => !exists(target));
    expect(missing).toEqual([]);
  });

  it.each(history)("history/%s names the current record that replaced it", (name) => {
    const [status = ""] = statusLinesOf(`history/${name}`);
    const match = SUPERSEDED.exec(status);
    expect(
      match,
      `"${status}" should read "- Status: superseded by [NNN](../NNN-title.md)"`,
    ).not.toBe(null);
    const [, number = "", target = ""] = match ?? [];
    expect(target.slice(0, 3), "the link and its number").toBe(number);
    expect(target > name, "the replacement is a later record").toBe(true);
    expect(current, "the replacement is current, in docs/decisions/").toContain(target);
  });

  it("README.md links every current and every history record, and only records that exist", () => {
    const linked = new Set(linksIn(readme, "README.md"));
    expect(current.filter((name) => !linked.has(name))).toEqual([]);
    expect(history.filter((name) => !linked.has(`history/${name}`))).toEqual([]);
    expect([...linked].filter((record) => !exists(record))).toEqual([]);
  });

  it(`current records total at most ${MAX_CURRENT_WORDS} words`, () => {
    const total = current.reduce((sum, name) => sum + wordsOf(name), 0);
    console.log(
      `decision records: ${current.length} current (${total} words), ${history.length} in history/`,
    );
    expect(total).toBeLessThanOrEqual(MAX_CURRENT_WORDS);
  });
});
