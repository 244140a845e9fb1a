/**
 * The W3C Nu HTML checker (vnu-jar, run on Java 17), as the HTML-validity specs run it:
 * one JVM run over many pages.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const vnuJar = path.join(
  path.dirname(createRequire(import.meta.url).resolve("vnu-jar/package.json")),
  "build/dist/vnu.jar",
);

type Message = {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
};

/**
 * The prerendered pages carry their stylesheet inline (decision 067), so the checker also reads
 * the CSS Tailwind emits. Its CSS checker predates three things that browsers support and that
 * Tailwind relies on; those messages, and only those, are not errors of ours. Any other CSS
 * message still fails the test.
 */
const outdatedCssChecks = [
  /^CSS: Unrecognized at-rule “@property”/,
  /^CSS: “transition-property”: “--tw-[\w-]+” is not a “transition-property” value/,
  /^CSS: “margin-trim”: Property “margin-trim” doesn't exist/,
];

/** Runs the checker once over the pages' HTML (label -> HTML) and lists its errors. */
export async function nuErrors(pages: Map<string, string>): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-vnu-"));
  try {
    const files = new Map<string, string>();
    for (const [label, html] of pages) {
      const name = label === "/" ? "index" : label.slice(1).replaceAll(/[^\w-]+/g, "_");
      const file = path.join(dir, `${name}.html`);
      writeFileSync(file, html);
      files.set(file, label);
    }
    const { stdout, stderr } = await promisify(execFile)(
      "java",
      // C1 only: for one short run the full JIT costs more than it saves (8.9 s against 3.1 s
      // for the pages here, the same messages); its compiled checker needs the larger stack.
      [
        "-Xss4m",
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-jar",
        vnuJar,
        "--format",
        "json",
        "--exit-zero-always",
        ...files.keys(),
      ],
      { maxBuffer: 32 * 1024 * 1024 },
    );
    // vnu writes its JSON report to stderr.
    const report = JSON.parse(stderr || stdout) as { messages: Message[] };
    return report.messages
      .filter((m) => m.type === "error" || m.type === "non-document-error")
      .filter((m) => !outdatedCssChecks.some((pattern) => pattern.test(m.message)))
      .map((m) => {
        const page = files.get(decodeURIComponent(new URL(m.url ?? "file:///").pathname)) ?? m.url;
        return `${page}:${m.lastLine ?? "?"} ${m.message}${m.extract ? ` [${m.extract.trim()}]` : ""}`;
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
