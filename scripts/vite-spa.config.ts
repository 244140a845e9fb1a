/**
 * The Vite config for the client-only SPA that `npm run audit` compares against
 * (SPA_BUILD=1 switches react-router.config.ts to ssr:false without prerendering).
 *
 * React Router refuses server-only route exports (loader, action, headers) in SPA mode.
 * The SPA only has to render pages for Lighthouse, so this build drops those exports,
 * and the imports only they used, the way React Router drops them from client bundles.
 * The registration form's POST therefore does nothing in this variant.
 *
 * The pages rendered on each request (the links in our emails, app/prerendered-paths.ts)
 * cannot exist without a server: they read a token on the server and import server-only
 * modules (`*.server.ts`), which React Router rightly refuses in a client bundle. The audit
 * never visits them, so this build replaces each of their route modules with a stub. The
 * list comes from the route table, so a new page of that kind needs no change here.
 */
import { createRequire } from "node:module";
import path from "node:path";

import { parse } from "@babel/parser";
import type { ExportNamedDeclaration, File } from "@babel/types";
import { deadCodeElimination, findReferencedIdentifiers } from "babel-dead-code-elimination";
import type { Plugin } from "vite";

import { renderedOnRequest } from "../app/prerendered-paths.ts";
import routes from "../app/routes.ts";
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

const appDir = path.resolve(import.meta.dirname, "..", "app");

/** The route modules of the pages rendered on each request, as absolute paths. */
type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };
function requestRenderedFiles(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((r) => {
    const url = r.index ? parent || "/" : `${parent}/${r.path ?? ""}`.replace(/\/+/g, "/");
    return [
      ...(renderedOnRequest.includes(url) ? [path.resolve(appDir, r.file)] : []),
      ...requestRenderedFiles(r.children ?? [], url === "/" ? "" : url),
    ];
  });
}
const serverOnlyPages = new Set(requestRenderedFiles(routes));
if (serverOnlyPages.size !== renderedOnRequest.length) {
  throw new Error(
    `vite-spa.config.ts: found ${serverOnlyPages.size} route modules for ${renderedOnRequest.join(" ")}`,
  );
}

/** In this build, a page that needs the server is a stub (it never reaches the audit). */
const SERVER_PAGE_STUB = `export default function RenderedOnRequest() {
  return "This page is rendered by the server on each request; the client-only build leaves it out.";
}
`;

function dropServerExports(): Plugin {
  return {
    name: "audit:drop-server-route-exports",
    enforce: "pre",
    transform(code, id) {
      const file = id.split("?")[0] ?? id;
      if (serverOnlyPages.has(path.resolve(file))) return { code: SERVER_PAGE_STUB, map: null };
      if (!/[\\/]app[\\/]routes[\\/].*\.tsx?$/.test(file)) return;
      if (![...SERVER_ONLY].some((name) => code.includes(name))) return;
      const ast = parse(code, { sourceType: "module", plugins: ["typescript", "jsx"] });
      const referenced = findReferencedIdentifiers(ast);
      let changed = false;
      traverse(ast, {
        ExportNamedDeclaration(path) {
          const declaration = path.node.declaration;
          // `export { action } from "…server.ts"`: the registration page re-exports its server half.
          if (!declaration && path.node.specifiers.length > 0) {
            const kept = path.node.specifiers.filter(
              (s) =>
                !(
                  s.type === "ExportSpecifier" &&
                  SERVER_ONLY.has(s.exported.type === "Identifier" ? s.exported.name : "")
                ),
            );
            if (kept.length < path.node.specifiers.length) {
              if (kept.length === 0) path.remove();
              else path.node.specifiers = kept;
              changed = true;
            }
          } else if (declaration?.type === "FunctionDeclaration" && declaration.id) {
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
  // A client-only page has no markup of its own until React renders it, so root.tsx
  // renders <Scripts/> on every page of this build (docs/decisions/105).
  define: { ...base.define, "import.meta.env.VITE_CLIENT_ONLY": JSON.stringify("1") },
};
