import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { scanInlineScripts } from "./inline-scripts.ts";

/**
 * The CSP manifest: for each prerendered HTML file of build/client, the hashes of
 * its inline scripts. It is written by `npm run build` (scripts/csp-hashes.ts) next
 * to build/client, never inside it, so it is not publicly served.
 */
export type CspManifest = {
  version: 1;
  /** Keyed by the file's path relative to build/client, with "/" separators. */
  files: Record<string, string[]>;
};

export const CSP_MANIFEST_NAME = "csp-manifest.json";

export type ManifestBuild = {
  manifest: CspManifest;
  dataBlocks: number;
  /** "file: handler" for each inline event handler found (a CSP hash cannot allow them). */
  problems: string[];
};

export function buildCspManifest(clientDir: string): ManifestBuild {
  const files: Record<string, string[]> = {};
  const problems: string[] = [];
  let dataBlocks = 0;
  const names = (readdirSync(clientDir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".html"))
    .sort();
  for (const name of names) {
    const scan = scanInlineScripts(readFileSync(path.join(clientDir, name), "utf8"));
    const key = name.split(path.sep).join("/");
    files[key] = scan.hashes;
    dataBlocks += scan.dataBlocks;
    for (const handler of scan.inlineHandlers) problems.push(`${key}: ${handler}`);
  }
  return { manifest: { version: 1, files }, dataBlocks, problems };
}

/**
 * Reads the manifest of a build. A build made without the post-build step has
 * none: the hashes are then computed from the HTML files at start-up, so the
 * pages still work, and the caller logs a warning.
 */
export function loadCspManifest(buildDir: string): {
  manifest: CspManifest;
  source: "file" | "computed";
} {
  const file = path.join(buildDir, CSP_MANIFEST_NAME);
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as CspManifest;
    if (parsed.version !== 1 || typeof parsed.files !== "object") {
      throw new Error(`${file} is not a CSP manifest of version 1: rebuild with npm run build`);
    }
    return { manifest: parsed, source: "file" };
  }
  return { manifest: buildCspManifest(path.join(buildDir, "client")).manifest, source: "computed" };
}

/**
 * The HTML file the static middleware (server/static-files.ts) answers a request
 * with, if any: "/team" is team/index.html, "/" is index.html. A clean path with
 * a query string is rendered by React Router instead, so it has no file.
 */
export function staticHtmlFileFor(manifest: CspManifest, url: string): string | undefined {
  const [rawPath = "/", query] = url.split("?", 2);
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (pathname.endsWith(".html")) {
    // Directory index files are only served through their clean path.
    if (pathname.endsWith("/index.html")) return undefined;
    const key = pathname.replace(/^\/+/, "");
    return Object.hasOwn(manifest.files, key) ? key : undefined;
  }
  if (query !== undefined) return undefined;
  const key = pathname === "/" ? "index.html" : `${pathname.replace(/^\/+/, "")}/index.html`;
  return Object.hasOwn(manifest.files, key) ? key : undefined;
}
