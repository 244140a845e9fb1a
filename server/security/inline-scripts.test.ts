import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { cspHash, scanInlineScripts } from "./inline-scripts.ts";

const sha = (text: string) =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("scanInlineScripts", () => {
  it("hashes classic and module inline scripts exactly as written", () => {
    const html = `<html><head><script>window.a = 1;</script></head><body>
<script type="module" async="">import "/assets/x.js";
</script><SCRIPT nonce="abc">\tb()\n</SCRIPT></body></html>`;
    expect(scanInlineScripts(html).hashes).toEqual([
      sha("window.a = 1;"),
      sha('import "/assets/x.js";\n'),
      sha("\tb()\n"),
    ]);
  });

  it("skips external scripts and JSON data blocks, which CSP does not run", () => {
    const html = `<script src="/assets/a.js"></script>
<script type="application/ld+json">{"@type":"MedicalClinic"}</script>
<script type="application/json">{}</script><script>run()</script>`;
    const scan = scanInlineScripts(html);
    expect(scan.hashes).toEqual([sha("run()")]);
    expect(scan.dataBlocks).toBe(2);
  });

  it("hashes what the browser hashes: CRLF line ends become LF", () => {
    expect(cspHash("a();\r\nb();\rc();")).toBe(sha("a();\nb();\nc();"));
  });

  it("lists each hash once, and hashes an empty script too", () => {
    expect(
      scanInlineScripts("<script>x()</script><script>x()</script><script></script>").hashes,
    ).toEqual([sha("x()"), sha("")]);
  });

  it("reads attributes that contain a '>'", () => {
    const html = `<script data-x="a>b">go()</script>`;
    expect(scanInlineScripts(html).hashes).toEqual([sha("go()")]);
  });

  it("reports inline event handlers, which no hash can allow", () => {
    expect(scanInlineScripts('<button onclick="steal()">Go</button>').inlineHandlers).toEqual([
      "onclick",
    ]);
    expect(scanInlineScripts('<p class="one">online=yes</p>').inlineHandlers).toEqual([]);
  });
});
