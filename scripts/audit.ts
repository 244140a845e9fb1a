/**
 * `npm run audit`: Lighthouse over every page, for the prerendered site and for the same
 * app built as a client-only SPA (the original design), written to docs/performance.md.
 *
 * 1. Builds the prerendered site into $BUILD_DIR (default build-audit) and the SPA into
 *    $BUILD_DIR-spa (SPA_BUILD=1, scripts/vite-spa.config.ts). `--no-build` reuses them.
 * 2. Serves the first with the production server (server/index.ts) and the second with
 *    a small static server below that answers every page with index.html, both on
 *    127.0.0.1 and both with the same precompressed files and cache headers.
 * 3. Runs Lighthouse (mobile defaults: simulated slow 4G and a 4x slower CPU) over each
 *    page in Debian's Chromium, `--runs N` times (default 1), keeping the median.
 * 4. Writes the tables, the SPA/SSR ratios of LCP and TBT, and what any category
 *    below 100 failed on.
 *
 * Environment: AUDIT_PORT (default 4310; the SPA uses the next port), CHROME_PATH.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

import routes from "../app/routes.ts";
import { chromiumLaunch } from "../playwright.config.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const skipBuild = args.includes("--no-build");
const runsArg = args.indexOf("--runs");
const runs = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1] ?? 1)) : 1;
const ssrDir = process.env.BUILD_DIR ?? "build-audit";
const spaDir = `${ssrDir}-spa`;
const ssrPort = Number(process.env.AUDIT_PORT ?? 4310);
const spaPort = ssrPort + 1;
const chromePath = process.env.CHROME_PATH ?? chromiumLaunch.executablePath;

const pagePaths = routes
  .filter((r) => r.index || (r.path !== undefined && !/[*:]/.test(r.path)))
  .map((r) => (r.index ? "/" : `/${r.path ?? ""}`));

// ---------------------------------------------------------------------------- build

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv) {
  console.log(
    `$ ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")} ${command} ${commandArgs.join(" ")}`,
  );
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(" ")} failed`);
}

function build() {
  // Canonical URLs point at the server that is audited, as they would in production.
  run("npm", ["run", "build"], {
    BUILD_DIR: ssrDir,
    SITE_URL: `http://127.0.0.1:${ssrPort}`,
  });
  const spaEnv = { SPA_BUILD: "1", BUILD_DIR: spaDir, SITE_URL: `http://127.0.0.1:${spaPort}` };
  run(
    "npm",
    ["exec", "--", "react-router", "build", ".", "--config", "scripts/vite-spa.config.ts"],
    spaEnv,
  );
  run(process.execPath, ["scripts/postbuild.ts"], spaEnv);
}

// -------------------------------------------------------------------------- servers

async function waitFor(url: string, timeoutMs = 20_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function startSsrServer() {
  const child = spawn(process.execPath, ["server/index.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(ssrPort),
      HOST: "127.0.0.1",
      BUILD_DIR: ssrDir,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "clinic-audit-")),
      HSTS: "false",
      LOG_LEVEL: "warn",
    },
  });
  return child;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json",
};

/**
 * The SPA's server: static files with the production server's caching and precompressed
 * bodies, and index.html for every path that is not a file, as SPA hosting does.
 */
function startSpaServer(clientDir: string) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = path.join(clientDir, path.normalize(pathname));
    if (!file.startsWith(clientDir) || !existsSync(file) || statSync(file).isDirectory()) {
      file = path.join(clientDir, "index.html");
    }
    const accept = String(req.headers["accept-encoding"] ?? "");
    let body = file;
    if (/\bbr\b/.test(accept) && existsSync(`${file}.br`)) {
      body = `${file}.br`;
      res.setHeader("Content-Encoding", "br");
    } else if (/\bgzip\b/.test(accept) && existsSync(`${file}.gz`)) {
      body = `${file}.gz`;
      res.setHeader("Content-Encoding", "gzip");
    }
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Type", TYPES[path.extname(file)] ?? "application/octet-stream");
    res.setHeader(
      "Cache-Control",
      pathname.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : file.endsWith(".html")
          ? "public, max-age=0, must-revalidate"
          : "public, max-age=3600",
    );
    res.end(readFileSync(body));
  });
  return new Promise<typeof server>((resolve) =>
    server.listen(spaPort, "127.0.0.1", () => resolve(server)),
  );
}

// ------------------------------------------------------------------------ lighthouse

type Row = {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  failing: string[];
  scripts: string[];
};

type LhResult = {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      score: number | null;
      numericValue?: number;
      title: string;
      scoreDisplayMode: string;
      details?: { items?: { url?: string; resourceType?: string }[] };
    }
  >;
  lighthouseVersion: string;
  runtimeError?: { code: string; message: string };
  environment: { hostUserAgent: string };
  configSettings: {
    formFactor: string;
    throttlingMethod: string;
    throttling: Record<string, number>;
  };
};

let lastMeta: LhResult | undefined;

async function audit(port: number, url: string): Promise<Row> {
  const samples: Row[] = [];
  let attempts = 0;
  while (samples.length < runs) {
    attempts += 1;
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    const lhr = result?.lhr as unknown as LhResult | undefined;
    if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
    // A run that could not load the page (a busy machine, a timeout) is retried, twice at most.
    if (lhr.runtimeError) {
      console.warn(
        `    ${url}: ${lhr.runtimeError.code}${attempts <= runs + 1 ? ", retrying" : ""}`,
      );
      if (attempts <= runs + 1) continue;
    }
    lastMeta = lhr;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failing = ["accessibility", "best-practices", "seo"].flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0)
        .map((ref) => ({ ref, a: lhr.audits[ref.id] }))
        .filter(({ a }) => a && a.scoreDisplayMode === "binary" && a.score !== null && a.score < 1)
        .map(({ ref, a }) => `${category}: ${ref.id} (${a?.title ?? ""})`),
    );
    const scripts = (lhr.audits["network-requests"]?.details?.items ?? [])
      .filter((item) => item.url?.startsWith(`http://127.0.0.1:`))
      .map((item) => `${item.resourceType ?? ""} ${item.url ?? ""}`);
    samples.push({
      path: new URL(url).pathname,
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      fcp: value("first-contentful-paint"),
      lcp: value("largest-contentful-paint"),
      tbt: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      failing,
      scripts,
    });
  }
  // The median of each figure separately, as Lighthouse's own guidance suggests.
  const median = (pick: (r: Row) => number) => {
    const sorted = samples.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  const first = samples[0] as Row;
  return {
    ...first,
    performance: median((r) => r.performance),
    accessibility: median((r) => r.accessibility),
    bestPractices: median((r) => r.bestPractices),
    seo: median((r) => r.seo),
    fcp: median((r) => r.fcp),
    lcp: median((r) => r.lcp),
    tbt: median((r) => r.tbt),
    cls: median((r) => r.cls),
  };
}

/** First-load weight in KB gzipped, from the files the page requested (as budgets.spec.ts). */
function weights(row: Row, clientDir: string) {
  const totals = { js: 0, css: 0, html: 0 };
  for (const entry of row.scripts) {
    const [type = "", url = ""] = entry.split(" ");
    const kind =
      type === "Script"
        ? "js"
        : type === "Stylesheet"
          ? "css"
          : type === "Document"
            ? "html"
            : null;
    if (!kind) continue;
    const pathname = new URL(url).pathname;
    const candidates = [
      path.join(clientDir, pathname),
      path.join(clientDir, pathname, "index.html"),
      path.join(clientDir, "index.html"),
    ];
    const file = candidates.find((f) => existsSync(f) && statSync(f).isFile());
    if (file) totals[kind] += gzipSync(readFileSync(file), { level: 9 }).length / 1024;
  }
  return totals;
}

// -------------------------------------------------------------------------- report

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ms = (v: number) => `${Math.round(v)} ms`;
const kb = (v: number) => v.toFixed(1);
const flag = (score: number, target: number) => (score >= target ? `${score}` : `**${score}**`);

function table(rows: Row[], clientDir: string) {
  const lines = [
    "| Page | Perf. | A11y | Best pr. | SEO | FCP | LCP | TBT | CLS | JS KB | CSS KB | HTML KB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    const w = weights(r, clientDir);
    lines.push(
      `| \`${r.path}\` | ${flag(r.performance, 98)} | ${flag(r.accessibility, 100)} | ${flag(r.bestPractices, 100)} | ${flag(r.seo, 100)} | ${s(r.fcp)} | ${s(r.lcp)} | ${ms(r.tbt)} | ${r.cls.toFixed(3)} | ${kb(w.js)} | ${kb(w.css)} | ${kb(w.html)} |`,
    );
  }
  return lines.join("\n");
}

function report(ssr: Row[], spa: Row[]) {
  const meta = lastMeta;
  const ratio = (a: number, b: number) =>
    b > 0 ? `${(a / b).toFixed(2)}x` : a > 0 ? "n/a (SSR 0 ms)" : "1.00x";
  const sum = (rows: Row[], pick: (r: Row) => number) => rows.reduce((t, r) => t + pick(r), 0);
  const ratioRows = ssr.map((r, i) => {
    const other = spa[i] as Row;
    return `| \`${r.path}\` | ${s(r.lcp)} | ${s(other.lcp)} | ${ratio(other.lcp, r.lcp)} | ${ms(r.tbt)} | ${ms(other.tbt)} | ${ratio(other.tbt, r.tbt)} |`;
  });
  const misses = [
    ...ssr.map((r) => ({ variant: "SSR", r })),
    ...spa.map((r) => ({ variant: "SPA", r })),
  ].flatMap(({ variant, r }) => r.failing.map((f) => `- ${variant} \`${r.path}\`: ${f}`));
  const below = ssr.filter(
    (r) => r.performance < 98 || r.accessibility < 100 || r.bestPractices < 100 || r.seo < 100,
  );
  const throttling = meta?.configSettings.throttling ?? {};

  return `# Performance

Generated by \`npm run audit\` (scripts/audit.ts) on ${new Date().toISOString().slice(0, 10)}. Do not edit by hand: run it again.

Lighthouse ${meta?.lighthouseVersion ?? "?"}, ${meta?.configSettings.formFactor ?? "mobile"} defaults, ${meta?.configSettings.throttlingMethod ?? "simulate"} throttling (RTT ${throttling["rttMs"] ?? "?"} ms, ${kb((throttling["throughputKbps"] ?? 0) / 1024)} Mbps, CPU ${throttling["cpuSlowdownMultiplier"] ?? "?"}x slower), ${runs === 1 ? "one run per page" : `median of ${runs} runs per page`}, in ${meta?.environment.hostUserAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? "Chromium"} on 127.0.0.1. Both variants are served with the same precompressed files and cache headers; each run starts with empty storage, so the cookie banner shows as on a first visit.

Targets: Performance at least 98 on every page; Accessibility, Best Practices and SEO 100. Figures that miss a target are in bold. JS, CSS and HTML are the first-load weights in KB gzipped (the budgets are 130, 15 and 30; \`tests/e2e/budgets.spec.ts\` enforces them).

## Prerendered site (what we ship)

${table(ssr, path.join(root, ssrDir, "client"))}

${below.length === 0 ? "Every page meets every target." : `${below.length} of ${ssr.length} pages miss a target: ${below.map((r) => `\`${r.path}\``).join(", ")}. What holds Performance back, and the options: docs/decisions/048-what-holds-lighthouse-performance-below-98.md.`}

## Client-only SPA (the original design, for comparison)

The same app built with \`ssr: false\` and no prerendering: every page is the same empty shell until the JavaScript has run.

${table(spa, path.join(root, spaDir, "client"))}

## SPA compared with the prerendered site

| Page | LCP SSR | LCP SPA | LCP SPA/SSR | TBT SSR | TBT SPA | TBT SPA/SSR |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${ratioRows.join("\n")}
| **All pages (sum)** | ${s(sum(ssr, (r) => r.lcp))} | ${s(sum(spa, (r) => r.lcp))} | **${ratio(
    sum(spa, (r) => r.lcp),
    sum(ssr, (r) => r.lcp),
  )}** | ${ms(sum(ssr, (r) => r.tbt))} | ${ms(sum(spa, (r) => r.tbt))} | **${ratio(
    sum(spa, (r) => r.tbt),
    sum(ssr, (r) => r.tbt),
  )}** |

## Audits that failed

${misses.length === 0 ? "None: every Accessibility, Best Practices and SEO audit passed on both variants." : misses.join("\n")}
`;
}

// ---------------------------------------------------------------------------- main

if (!skipBuild) build();
for (const dir of [ssrDir, spaDir]) {
  if (!existsSync(path.join(root, dir, "client", "index.html"))) {
    throw new Error(`No build in ${dir}: run without --no-build first`);
  }
}

const ssrServer = startSsrServer();
const spaServer = await startSpaServer(path.join(root, spaDir, "client"));
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [...chromiumLaunch.args, "--headless=new"],
  logLevel: "silent",
});

try {
  await waitFor(`http://127.0.0.1:${ssrPort}/healthz`);
  const ssr: Row[] = [];
  const spa: Row[] = [];
  for (const p of pagePaths) {
    ssr.push(await audit(chrome.port, `http://127.0.0.1:${ssrPort}${p}`));
    spa.push(await audit(chrome.port, `http://127.0.0.1:${spaPort}${p}`));
    const a = ssr.at(-1) as Row;
    const b = spa.at(-1) as Row;
    console.log(
      `${p.padEnd(20)} SSR ${a.performance}/${a.accessibility}/${a.bestPractices}/${a.seo} LCP ${s(a.lcp)} TBT ${ms(a.tbt)} CLS ${a.cls.toFixed(3)}` +
        `   SPA ${b.performance}/${b.accessibility}/${b.bestPractices}/${b.seo} LCP ${s(b.lcp)} TBT ${ms(b.tbt)} CLS ${b.cls.toFixed(3)}`,
    );
    for (const f of a.failing) console.log(`    SSR ${f}`);
  }
  const out = path.join(root, "docs", "performance.md");
  writeFileSync(out, report(ssr, spa));
  console.log(`wrote ${path.relative(root, out)}`);
} finally {
  chrome.kill();
  spaServer.close();
  ssrServer.kill("SIGTERM");
}
