/**
 * Build step (called by scripts/postbuild.ts): hashes the inline scripts of every
 * prerendered HTML file and writes <build>/csp-manifest.json, outside the public
 * client folder. The server sends each file with a CSP allowing exactly those hashes.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";

import { CSP_MANIFEST_NAME, buildCspManifest } from "../server/security-headers.ts";

export function writeCspManifest(buildDir: string): { files: number; hashes: number } {
  const { manifest, dataBlocks, problems } = buildCspManifest(path.join(buildDir, "client"));
  if (problems.length > 0) {
    throw new Error(
      `Inline event handlers cannot be allowed by a CSP hash; move them into components:\n  ${problems.join("\n  ")}`,
    );
  }
  writeFileSync(path.join(buildDir, CSP_MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  const files = Object.keys(manifest.files).length;
  const hashes = Object.values(manifest.files).reduce((n, h) => n + h.length, 0);
  console.log(
    `csp: ${hashes} inline script hashes for ${files} HTML files (${dataBlocks} JSON data blocks skipped)`,
  );
  return { files, hashes };
}
