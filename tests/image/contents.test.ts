import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { importSpecifiers } from "../support/imports.ts";

/**
 * The production image holds only what deploy/Dockerfile copies into its last stage,
 * and only the production dependencies (`npm prune --omit=dev`). Walks the import
 * graph of each entry the image runs, as Node loads it (type-only imports are erased
 * by type stripping, so they need not be there), and checks every file is copied and
 * every package is a production dependency (docs/decisions/118).
 */
const root = path.resolve(import.meta.dirname, "../..");
const entries = ["server/index.ts", "server/cli/registrations.ts"];

/** The paths (relative to /app) the last stage copies from the build stage. */
export function copiedPaths(dockerfile: string): string[] {
  const stages = dockerfile.split(/^FROM\s/m);
  const last = stages.at(-1) ?? "";
  const copied: string[] = [];
  for (const match of last.matchAll(/^COPY\s+--from=build\s+(\S+)\s+(\S+)\s*$/gm)) {
    const [, from = "", to = ""] = match;
    const source = path.posix.relative("/app", from);
    // `COPY /app/package.json ./` keeps the name; `COPY /app/server ./server` names it.
    const target = path.posix.normalize(
      to.endsWith("/") ? path.posix.join(to, path.posix.basename(from)) : to,
    );
    // The image keeps the repository's layout, so a file's path is the same in both.
    if (source !== target) throw new Error(`COPY ${from} ${to} moves a path; keep the layout`);
    copied.push(source);
  }
  return copied;
}

/** Module specifiers Node loads at run time from one TypeScript file. */
export const runtimeImports = (fileName: string, text: string) =>
  importSpecifiers(fileName, text, { types: false });

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** Every project file and package the entries load, with who imports each. */
export function importGraph(from: string[]) {
  const files = new Map<string, string>();
  const packages = new Map<string, string>();
  const queue = from.map((file) => ({ file, by: "(entry)" }));
  while (queue.length > 0) {
    const { file, by } = queue.shift()!;
    if (files.has(file)) continue;
    files.set(file, by);
    const absolute = path.join(root, file);
    if (!existsSync(absolute)) continue;
    for (const specifier of runtimeImports(file, readFileSync(absolute, "utf8"))) {
      if (specifier.startsWith(".")) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        queue.push({ file: target, by: file });
      } else if (specifier.startsWith("node:") || builtinModules.includes(specifier)) {
        continue;
      } else {
        const name = packageName(specifier);
        if (!packages.has(name)) packages.set(name, file);
      }
    }
  }
  return { files, packages };
}

describe("the production image", () => {
  const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
  const copied = copiedPaths(dockerfile);
  const { files, packages } = importGraph(entries);

  it("copies every file the server and the operations CLI import", () => {
    expect(files.size).toBeGreaterThan(20);
    const inImage = (file: string) =>
      copied.some((dir) => file === dir || file.startsWith(`${dir}/`));
    const missing = [...files]
      .filter(([file]) => !inImage(file))
      .map(([file, by]) => `${file} (imported by ${by})`);
    expect(missing, `not copied by deploy/Dockerfile's last stage: ${copied.join(", ")}`).toEqual(
      [],
    );
    const absent = [...files].filter(([file]) => !existsSync(path.join(root, file)));
    expect(absent.map(([file, by]) => `${file} (imported by ${by})`)).toEqual([]);
  });

  it("has every package they import among the production dependencies", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(packages.size).toBeGreaterThan(3);
    const pruned = [...packages]
      .filter(([name]) => !(name in manifest.dependencies))
      .map(([name, by]) => `${name} (imported by ${by})`);
    expect(pruned, "removed by npm prune --omit=dev").toEqual([]);
  });

  it("reads type-only imports as erased and dynamic imports as loaded", () => {
    const code = [
      'import type { A } from "./types.ts";',
      'import { type B, c } from "./values.ts";',
      'export type { D } from "./more-types.ts";',
      'export { e } from "./more-values.ts";',
      'const f = await import("./later.ts");',
    ].join("\n");
    expect(runtimeImports("x.ts", code)).toEqual(["./values.ts", "./more-values.ts", "./later.ts"]);
  });
});
