import { readFileSync, statSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * How many project files a registration crosses (issues 30, 39), counted from the socket: the
 * static imports (`import`, `import type`, `export ... from`) with relative paths, followed
 * from the entry points below to files. Start-up wiring (server/main.ts, server/services.ts)
 * and the shell every page shares (app/root.tsx, app/entry.server.tsx) are not counted.
 */

const root = path.resolve(import.meta.dirname, "../..");
const routeModule = "app/routes/registration/register-interest.tsx";
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const statementsOf = (file: string) =>
  ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest).statements;

/** The module that defines the action the page's route exports (itself, or a re-export's source). */
function actionModule(): string {
  for (const statement of statementsOf(routeModule)) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause) &&
      statement.exportClause.elements.some((e) => e.name.text === "action")
    ) {
      return resolve(routeModule, statement.moduleSpecifier.text) ?? routeModule;
    }
  }
  return routeModule;
}

/** A relative specifier as a project file; null for a package or React Router's generated types. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".") || specifier.includes("/+types/")) return null;
  const base = path.join(path.dirname(from), specifier);
  const file = [base, `${base}.ts`, `${base}.tsx`].find((candidate) =>
    statSync(path.join(root, candidate), { throwIfNoEntry: false })?.isFile(),
  );
  if (!file) throw new Error(`${from} imports ${specifier}, which is no file`);
  return file;
}

/** From a file in `reexportsOnly`, only its `export ... from` statements are followed. */
function walk(entries: readonly string[], reexportsOnly: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const follow = reexportsOnly.includes(file) ? ts.isExportDeclaration : undefined;
    for (const statement of statementsOf(file)) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      if (follow && !follow(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const next = resolve(file, specifier.text);
      if (next) visit(next);
    }
  };
  for (const entry of entries) visit(entry);
  return [...seen].sort();
}

/**
 * The server's request path. `server/app.ts` takes the request; `server/main.ts` hands it the
 * security headers and the guards, and its catch-all gives the request to React Router with the
 * build, whose route module runs the action it re-exports (its own imports serve the page,
 * which this answer does not render); the action reaches RegistrationService.register through
 * the router context rather than by an import.
 */
const serverEntries = [
  "server/app.ts",
  "server/security-headers.ts",
  "server/registrations/guards.ts",
  routeModule,
  "server/registrations/register.ts",
];

/**
 * End to end: those, the whole route module (the page), the island's browser entry, and the
 * outbox's mail and spreadsheet channels, which deliver what the registration queued.
 */
const endToEndEntries = [
  ...serverEntries,
  "app/islands/registration.tsx",
  "server/outbox/mail.ts",
  "server/outbox/spreadsheet.ts",
];

describe("the files a registration crosses", () => {
  it.each([
    ["on the server's request path", 20, serverEntries, [routeModule]],
    ["end to end", 40, endToEndEntries, []],
  ] as const)("%s: at most %i", (label, limit, entries, reexportsOnly) => {
    const files = walk(entries, reexportsOnly);
    console.log(`A registration ${label} crosses ${files.length} files:\n  ${files.join("\n  ")}`);
    expect(files.length).toBeLessThanOrEqual(limit);
  });

  it("starts where server/main.ts hands the request, and ends at the page's action", () => {
    const main = read("server/main.ts");
    for (const [name, file] of [
      ["createApp", "./app.ts"],
      ["securityHeaders", "./security-headers.ts"],
      ["createRegistrationGuards", "./registrations/guards.ts"],
    ]) {
      expect(main).toMatch(new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from "${file}"`));
    }
    expect(read("server/app.ts")).toContain("createRequestHandler(");
    expect(actionModule()).toBe("app/features/registration/register.server.ts");
  });
});
