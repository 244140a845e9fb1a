import { readdirSync } from "node:fs";
import path from "node:path";

import type { Plugin } from "vite";

const VIRTUAL = "virtual:islands";
const RESOLVED = `\0${VIRTUAL}`;

type Built = Record<string, { src: string; imports: string[] }>;

/**
 * Islands (docs/decisions/126). Each file of app/islands/ is a browser entry: this plugin
 * adds it to React Router's client build, then gives the server build `virtual:islands`,
 * the entry's file and the chunks it imports, so the server can write the module script
 * and its preloads. In development the entries are served from source.
 */
export function islands(root = process.cwd()): Plugin {
  const dir = path.join(root, "app", "islands");
  const entries = new Map(
    readdirSync(dir)
      .filter((file) => file.endsWith(".tsx"))
      .map((file) => [path.join(dir, file), path.basename(file, ".tsx")]),
  );
  let built: Built | null = null;
  let base = "/";
  let serve = false;
  return {
    name: "clinic:islands",
    configResolved(config) {
      base = config.base;
      serve = config.command === "serve";
    },
    buildStart() {
      if (this.environment.name !== "client" || serve) return;
      for (const [id, name] of entries) {
        this.emitFile({ type: "chunk", id, name: `island-${name}` });
      }
    },
    generateBundle(_options, bundle) {
      if (this.environment.name !== "client") return;
      const chunks = new Map(
        Object.values(bundle).flatMap((c) => (c.type === "chunk" ? [[c.fileName, c]] : [])),
      );
      built = {};
      for (const chunk of chunks.values()) {
        const name =
          chunk.isEntry && chunk.facadeModuleId ? entries.get(chunk.facadeModuleId) : undefined;
        if (name === undefined) continue;
        // Every chunk the entry imports, however deep, so the browser asks for them at once.
        const imports = new Set<string>();
        const visit = (file: string) => {
          for (const next of chunks.get(file)?.imports ?? []) {
            if (imports.has(next)) continue;
            imports.add(next);
            visit(next);
          }
        };
        visit(chunk.fileName);
        built[name] = {
          src: base + chunk.fileName,
          imports: [...imports].map((file) => base + file),
        };
      }
    },
    transform(code, id) {
      // In development React Router's Fast Refresh runtime must run before any component
      // module; <Scripts/> would load it, but island pages have no <Scripts/>.
      if (!serve || !entries.has(id)) return null;
      return { code: `import "virtual:react-router/inject-hmr-runtime";\n${code}`, map: null };
    },
    resolveId(id) {
      return id === VIRTUAL ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      let islands: Built = {};
      if (serve) {
        for (const [file, name] of entries) {
          islands[name] = { src: `/${path.relative(root, file)}`, imports: [] };
        }
      } else if (this.environment.name !== "client") {
        if (built === null) throw new Error("The server build needs the client build's islands.");
        islands = built;
      }
      // The client build's route modules import it too, but never run it in a browser.
      return `export default ${JSON.stringify(islands)};`;
    },
  };
}
