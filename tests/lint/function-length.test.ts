import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { expect, test } from "vitest";

/**
 * A function of server/ fits on a screen or two (issue 39): at most LIMIT lines, counted
 * from its first line to its last, nested functions inside it included. Prints the five
 * longest, so a note can quote them.
 */
const LIMIT = 120;

const root = path.resolve(import.meta.dirname, "../..");

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

/** What a reader calls a function: its own name, or the name it is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.text;
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    !ts.isComputedPropertyName(parent.name) &&
    !ts.isObjectBindingPattern(parent.name) &&
    !ts.isArrayBindingPattern(parent.name)
  ) {
    return parent.name.text;
  }
  return "(anonymous)";
}

type Measured = { where: string; lines: number };

function functionsOf(file: string): Measured[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const relative = path.relative(root, file);
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const line = (at: number) => source.getLineAndCharacterOfPosition(at).line;
      found.push({
        where: `${relative} ${nameOf(node as ts.FunctionLikeDeclaration)}`,
        lines: line(node.getEnd()) - line(node.getStart(source)) + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in server/ is longer than ${String(LIMIT)} lines`, () => {
  const all = modules(path.join(root, "server"))
    .flatMap(functionsOf)
    .sort((a, b) => b.lines - a.lines);
  console.info(
    `The five longest functions in server/:\n${all
      .slice(0, 5)
      .map((f) => `  ${String(f.lines).padStart(4)}  ${f.where}`)
      .join("\n")}`,
  );
  expect(all.filter((f) => f.lines > LIMIT)).toEqual([]);
});
