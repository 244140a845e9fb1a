/**
 * The Vite config for the client-only SPA that `npm run audit` compares against
 * (SPA_BUILD=1 switches react-router.config.ts to ssr:false without prerendering).
 *
 * React Router refuses server-only route exports (loader, action, headers) in SPA mode.
 * The SPA only has to render pages for Lighthouse, so this build drops those exports,
 * and the imports only they used, the way React Router drops them from client bundles.
 * The registration form's POST therefore does nothing in this variant.
 */
import { createRequire } from "node:module";
import path from "node:path";

import { parse } from "@babel/parser";
import type { ExportNamedDeclaration, File } from "@babel/types";
import { deadCodeElimination, findReferencedIdentifiers } from "babel-dead-code-elimination";
import type { Plugin } from "vite";

import base from "../vite.config.ts";

// @babel/traverse and @babel/generator come with React Router's toolchain but without
// type declarations, so they are loaded with the few types this file needs.
const require = createRequire(import.meta.url);
type ExportPath = { node: ExportNamedDeclaration; remove(): void };
const traverse = (require("@babel/traverse") as { default: Traverse }).default;
type Traverse = (ast: File, visitors: { ExportNamedDeclaration(path: ExportPath): void }) => void;
const generate = (require("@babel/generator") as { default: Generate }).default;
type Generate = (
  ast: File,
  options: { sourceMaps: boolean; sourceFileName: string },
  code: string,
) => { code: string; map: unknown };

const SERVER_ONLY = new Set(["loader", "action", "headers", "middleware"]);

function dropServerExports(): Plugin {
  return {
    name: "audit:drop-server-route-exports",
    enforce: "pre",
    transform(code, id) {
      const file = id.split("?")[0] ?? id;
      if (!/[\\/]app[\\/]routes[\\/].*\.tsx?$/.test(file)) return;
      if (![...SERVER_ONLY].some((name) => code.includes(name))) return;
      const ast = parse(code, { sourceType: "module", plugins: ["typescript", "jsx"] });
      const referenced = findReferencedIdentifiers(ast);
      let changed = false;
      traverse(ast, {
        ExportNamedDeclaration(path) {
          const declaration = path.node.declaration;
          if (declaration?.type === "FunctionDeclaration" && declaration.id) {
            if (SERVER_ONLY.has(declaration.id.name)) {
              path.remove();
              changed = true;
            }
          } else if (declaration?.type === "VariableDeclaration") {
            declaration.declarations = declaration.declarations.filter(
              (d) => !(d.id.type === "Identifier" && SERVER_ONLY.has(d.id.name)),
            );
            if (declaration.declarations.length === 0) {
              path.remove();
              changed = true;
            }
          }
        },
      });
      if (!changed) return;
      deadCodeElimination(ast, referenced);
      const output = generate(ast, { sourceMaps: true, sourceFileName: file }, code);
      return { code: output.code, map: output.map as null };
    },
  };
}

export default {
  ...base,
  // This file lives in scripts/; the app is one level up.
  root: path.resolve(import.meta.dirname, ".."),
  plugins: [dropServerExports(), ...(base.plugins ?? [])],
};
