/**
 * Build option (called by scripts/postbuild.ts): puts the stylesheet into each prerendered
 * HTML file, so the first paint waits for the HTML only and not for a second request.
 * `INLINE_CSS=1` or `INLINE_CSS=0` overrides the default below; see
 * docs/decisions/history/067-stylesheet-inlined-in-prerendered-pages.md for the measurements.
 *
 * Each `<link rel="stylesheet" href="/assets/….css">` becomes a `<style>` with the file's
 * text, followed by the same link with the `disabled` attribute. A disabled stylesheet link
 * is not fetched, but React finds it when it hydrates and adopts it as the stylesheet it
 * rendered; without it React would insert the link again and download the file.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

import { parseAttributes } from "../server/security-headers.ts";

export const INLINE_CSS_DEFAULT = true;

export function inlineCssEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env["INLINE_CSS"]?.trim().toLowerCase();
  if (value === undefined || value === "") return INLINE_CSS_DEFAULT;
  if (["1", "true", "yes"].includes(value)) return true;
  if (["0", "false", "no"].includes(value)) return false;
  throw new Error(`INLINE_CSS must be 1 or 0, not ${JSON.stringify(env["INLINE_CSS"])}`);
}

const LINK = /<link\b((?:[^>"']|"[^"]*"|'[^']*')*)\/?>/gi;

/** Replaces the stylesheet links of one HTML document; returns it unchanged if it has none. */
export function inlineStylesheets(html: string, readCss: (href: string) => string): string {
  return html.replace(LINK, (tag, source: string) => {
    const attributes = parseAttributes(source.replace(/\/$/, ""));
    const href = attributes.get("href") ?? "";
    if (
      attributes.get("rel")?.toLowerCase() !== "stylesheet" ||
      !/^\/assets\/[^/]+\.css$/.test(href)
    ) {
      return tag;
    }
    const css = readCss(href);
    if (/<\/style/i.test(css)) throw new Error(`${href} contains "</style" and cannot be inlined`);
    const disabled = tag.replace(/\s*\/?>$/, " disabled/>");
    return `<style>${css}</style>${disabled}`;
  });
}

export function inlineCssInto(clientDir: string): { files: number; bytes: number } {
  const cache = new Map<string, string>();
  const readCss = (href: string) => {
    let css = cache.get(href);
    if (css === undefined) {
      css = readFileSync(path.join(clientDir, href), "utf8").trim();
      cache.set(href, css);
    }
    return css;
  };
  let files = 0;
  for (const name of readdirSync(clientDir, { recursive: true }) as string[]) {
    if (!name.endsWith(".html")) continue;
    const file = path.join(clientDir, name);
    const html = readFileSync(file, "utf8");
    const inlined = inlineStylesheets(html, readCss);
    if (inlined !== html) {
      writeFileSync(file, inlined);
      files += 1;
    }
  }
  const bytes = [...cache.values()].reduce((n, css) => n + Buffer.byteLength(css), 0);
  return { files, bytes };
}
