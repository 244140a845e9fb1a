import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/**
 * The decision records (docs/decisions/README.md): each file is `NNN-title.md`, opens
 * with `# NNN. Title`, a date and a one-line status, and every link from one record to
 * another leads to a record that exists, so a "superseded by" can be followed.
 */
const dir = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(dir)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .sort();

describe("decision records", () => {
  it("are there", () => {
    expect(records.length).toBeGreaterThan(50);
  });

  it.each(records)("%s has its number, a date and a status", (name) => {
    const lines = readFileSync(path.join(dir, name), "utf8").split("\n");
    expect(lines[0], "the title line").toMatch(new RegExp(`^# ${name.slice(0, 3)}\\. \\S`));
    const head = lines.slice(0, 6);
    expect(head.some((l) => /^- Date: \d{4}-\d{2}-\d{2}$/.test(l))).toBe(true);
    expect(head.some((l) => /^- Status: \S/.test(l))).toBe(true);
  });

  it.each(records)("%s links only to records that exist", (name) => {
    const text = readFileSync(path.join(dir, name), "utf8");
    const targets = [...text.matchAll(/\]\(((?:\.\/)?\d{3}-[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((m) =>
      (m[1] ?? "").replace(/^\.\//, ""),
    );
    const missing = targets.filter((target) => !records.includes(target));
    expect(missing).toEqual([]);
  });
});
