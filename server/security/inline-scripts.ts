import { createHash } from "node:crypto";

/**
 * Finds the inline scripts a browser would execute in an HTML document and returns
 * their CSP source expressions ('sha256-...').
 *
 * Only documents we generate ourselves are parsed (React Router's prerender
 * output), so a small tokenizer is enough: a <script> element's text runs raw
 * up to the first "</script", exactly as the HTML parser reads it.
 */

const SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** JavaScript MIME types that make a classic script (HTML spec, "JavaScript MIME type essence match"). */
const JS_TYPES = new Set([
  "application/ecmascript",
  "application/javascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);

export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1]?.toLowerCase();
    if (!name || attributes.has(name)) continue;
    attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

/**
 * Whether CSP script-src governs this inline element: classic scripts, module
 * scripts and import maps. Data blocks such as application/ld+json never run.
 */
export function isExecutable(attributes: Map<string, string>): boolean {
  if (attributes.has("src")) return false;
  const type = attributes.get("type");
  if (type === undefined || type.trim() === "") {
    const language = attributes.get("language");
    return language === undefined || language === "" || JS_TYPES.has(`text/${language}`);
  }
  const essence = type.trim().toLowerCase();
  return essence === "module" || essence === "importmap" || JS_TYPES.has(essence);
}

/** The text the browser hashes: the HTML parser turns CRLF and lone CR into LF first. */
function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export function cspHash(text: string): string {
  const digest = createHash("sha256").update(normaliseNewlines(text), "utf8").digest("base64");
  return `'sha256-${digest}'`;
}

export type InlineScriptScan = {
  /** Distinct hashes of executable inline scripts, in document order. */
  hashes: string[];
  /** Inline data blocks skipped (for the build log). */
  dataBlocks: number;
  /** Event-handler attributes (onclick=...): a hash cannot allow them, so the build fails. */
  inlineHandlers: string[];
};

export function scanInlineScripts(html: string): InlineScriptScan {
  const hashes: string[] = [];
  let dataBlocks = 0;
  for (const m of html.matchAll(SCRIPT)) {
    const attributes = parseAttributes(m[1] ?? "");
    if (attributes.has("src")) continue;
    if (!isExecutable(attributes)) {
      dataBlocks += 1;
      continue;
    }
    const hash = cspHash(m[2] ?? "");
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  const inlineHandlers = [...html.matchAll(/<[a-z][^>]*\s(on[a-z]+)\s*=/gi)].map((m) => m[1] ?? "");
  return { hashes, dataBlocks, inlineHandlers };
}
