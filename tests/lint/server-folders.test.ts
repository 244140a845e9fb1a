import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

import { importSpecifiers } from "../support/imports.ts";

/**
 * The server's folders import one another in one direction (docs/architecture.md, "Server
 * folders"; decision 180). Lists every folder-level edge, from a module of server/<a>/ to
 * one of server/<b>/ (type-only and dynamic imports too; unit tests, which nothing imports,
 * left out), finds no cycle among them, and checks that every folder has its lint zone.
 */
const root = path.resolve(import.meta.dirname, "../..");
const server = path.join(root, "server");

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

const specifiers = (file: string) =>
  importSpecifiers(file, readFileSync(file, "utf8"), { types: true });

/** The folder under server/ a file is in; null for a top-level file. */
function folderOf(file: string): string | null {
  const parts = path.relative(server, file).split(path.sep);
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** "a -> b" for every folder a importing folder b, with the imports that make it. */
export function folderEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of modules(server)) {
    const from = folderOf(file);
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(server + path.sep)) continue;
      const to = folderOf(target);
      if (from === null || to === null || from === to) continue;
      const key = `${from} -> ${to}`;
      const imports = edges.get(key) ?? [];
      imports.push(`${path.relative(root, file)} imports ${path.relative(root, target)}`);
      edges.set(key, imports);
    }
  }
  return new Map([...edges].sort(([a], [b]) => a.localeCompare(b)));
}

/** The folders on a cycle, each cycle once as a path back to its start; none when acyclic. */
function cycles(edges: Iterable<string>): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from = "", to = ""] = edge.split(" -> ");
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const found = new Set<string>();
  const walk = (node: string, trail: string[]) => {
    for (const to of next.get(node) ?? []) {
      const at = trail.indexOf(to);
      if (at >= 0) {
        const cycle = trail.slice(at);
        const start = cycle.indexOf(cycle.toSorted()[0] ?? "");
        found.add([...cycle.slice(start), ...cycle.slice(0, start), cycle[start]].join(" -> "));
      } else {
        walk(to, [...trail, to]);
      }
    }
  };
  for (const node of next.keys()) walk(node, [node]);
  return [...found].sort();
}

describe("server folders", () => {
  it("import one another without a cycle", () => {
    const edges = folderEdges();
    const listing = [...edges].map(([edge, imports]) => `${edge}\n    ${imports.join("\n    ")}`);
    console.log(`Imports between server/ folders:\n${listing.join("\n")}`);
    expect(cycles(edges.keys())).toEqual([]);
  });

  it("each have a lint zone that keeps their imports downward", async () => {
    const eslint = new ESLint({ cwd: root });
    const folders = readdirSync(server, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    for (const folder of folders) {
      const config = (await eslint.calculateConfigForFile(
        path.join(server, folder, "example.ts"),
      )) as { rules: Record<string, [unknown, { zones: Array<{ target: string | string[] }> }]> };
      const [, { zones }] = config.rules["import/no-restricted-paths"] ?? [null, { zones: [] }];
      const targets = zones.flatMap((zone) => [zone.target].flat());
      expect(targets, `no zone for server/${folder}/`).toContain(`./server/${folder}`);
    }
  });

  it("finds a cycle where there is one", () => {
    expect(cycles(["a -> b", "b -> c", "c -> a", "c -> d"])).toEqual(["a -> b -> c -> a"]);
    expect(cycles(["a -> b", "b -> c", "a -> c"])).toEqual([]);
  });
});
