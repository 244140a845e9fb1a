import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { clinic } from "../../app/content/clinic.ts";

/**
 * The clinic's name is written in one place, app/content/clinic.ts (decision 111): every
 * other module of app/ reads `clinic.name`, `clinic.shortName` or `clinic.legalName`, so a
 * new name is one edit. This reads every source file of app/ (tests aside: they may spell
 * out what they expect) and fails on any that writes one of them out, in any spelling of
 * its apostrophe.
 */
const root = path.resolve(import.meta.dirname, "../..");
const home = "app/content/clinic.ts";

/** The name as code might write it: ' or ’ or an HTML entity for the apostrophe. */
function spellings(name: string): RegExp {
  const escaped = name
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/'/g, "(?:'|’|&apos;|&#39;|&#x27;|&rsquo;|\\\\u2019)");
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`);
}
const patterns = [...new Set([clinic.name, clinic.shortName, clinic.legalName])].map(spellings);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .map((name) => `${dir}/${name.split(path.sep).join("/")}`)
    .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .sort();
}

function writesName(file: string): boolean {
  const text = readFileSync(path.join(root, file), "utf8");
  return patterns.some((pattern) => pattern.test(text));
}

const files = sourceFiles("app");
const allowed = (file: string) => file === home;

describe("the clinic's name has one home", () => {
  it("is written out in app/content/clinic.ts", () => {
    expect(files).toContain(home);
    expect(writesName(home)).toBe(true);
  });

  it("is not written out anywhere else in app/", () => {
    const offenders = files.filter((file) => !allowed(file) && writesName(file));
    expect(offenders, `use clinic.name etc. from ${home} instead`).toEqual([]);
  });

  it("finds the name however its apostrophe is written", () => {
    const [name] = patterns;
    expect(name?.test(`Welcome to ${clinic.name}.`)).toBe(true);
    expect(name?.test(clinic.name.replace("'", "&apos;"))).toBe(true);
    expect(name?.test(clinic.name.replace("'", "’"))).toBe(true);
  });
});
