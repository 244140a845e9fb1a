import type { Plugin } from "vite";

/**
 * Zod 4 compiles object parsers with `new Function`, and probes for eval with
 * `Function("")` whenever a z.object() is built, at module load. Our
 * Content-Security-Policy forbids eval (no 'unsafe-eval'), so in the browser the
 * probe is refused and reported as a CSP violation on every page.
 *
 * Jitless mode skips the probe. It must be on before the first schema is built,
 * which no app module can guarantee (chunks that build schemas load before the
 * root route's body runs), so this plugin sets it at the top of Zod's own core
 * module, where Zod reads its global config. See docs/decisions/040.
 */
const ZOD_CORE = /[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;

export function zodJitless(): Plugin {
  return {
    name: "clinic:zod-jitless",
    enforce: "pre",
    transform(code, id) {
      if (!ZOD_CORE.test(id.split("?", 1)[0] ?? "")) return null;
      return { code: `(globalThis.__zod_globalConfig ??= {}).jitless = true;\n${code}`, map: null };
    },
  };
}
