/**
 * Runs after `react-router build`:
 * 1. writes sitemap.xml and robots.txt from the prerendered pages (app/prerendered-paths.ts);
 * 2. with INLINE_CSS (scripts/inline-css.ts), puts the stylesheet into each prerendered
 *    HTML file (not into the SPA baseline's shell);
 * 3. hashes the inline scripts for the Content-Security-Policy (scripts/csp-hashes.ts);
 * 4. precompresses every text file of build/client as .br and .gz, so the server
 *    sends compressed bytes without compressing on each request.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

import { writeCspManifest } from "./csp-hashes.ts";
import { inlineCssEnabled, inlineCssInto } from "./inline-css.ts";
import { siteUrlFromEnv } from "./site-url.ts";
import { sitemapPaths } from "../app/prerendered-paths.ts";

const buildDir = process.env.BUILD_DIR ?? (process.env.SPA_BUILD === "1" ? "build-spa" : "build");
const clientDir = path.resolve(buildDir, "client");
const origin = siteUrlFromEnv();

/** The pages in the sitemap: prerendered ones, without the thank-you page (app/prerendered-paths.ts). */
function staticPaths(): readonly string[] {
  return sitemapPaths;
}

function writeSeoFiles() {
  const urls = staticPaths()
    .map((p) => `  <url><loc>${new URL(p, origin).href}</loc></url>`)
    .join("\n");
  writeFileSync(
    path.join(clientDir, "sitemap.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  writeFileSync(
    path.join(clientDir, "robots.txt"),
    `User-agent: *\nAllow: /\n\nSitemap: ${new URL("/sitemap.xml", origin).href}\n`,
  );
}

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|xml|txt|json|data|webmanifest)$/;

function precompress(dir: string): { files: number; raw: number; br: number } {
  const totals = { files: 0, raw: 0, br: 0 };
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (!COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    if (body.length < 512) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    totals.files += 1;
    totals.raw += body.length;
    totals.br += br.length;
  }
  return totals;
}

writeSeoFiles();
if (process.env.SPA_BUILD !== "1" && inlineCssEnabled()) {
  const inlined = inlineCssInto(clientDir);
  console.log(
    `postbuild: stylesheet (${(inlined.bytes / 1024).toFixed(0)} KB) inlined into ${inlined.files} HTML files`,
  );
}
writeCspManifest(buildDir);
const t = precompress(clientDir);
console.log(
  `postbuild: sitemap for ${staticPaths().length} pages at ${origin}; precompressed ${t.files} files, ${(t.raw / 1024).toFixed(0)} KB -> ${(t.br / 1024).toFixed(0)} KB brotli`,
);
