/**
 * Load benchmark (npm run bench:load): 10,000 registrations at concurrency 100
 * through the production server, on SQLite and then on PostgreSQL, then through Caddy
 * (TLS, the shipped deploy/Caddyfile) to two servers sharing PostgreSQL and a Redis
 * rate-limit store, with a ledger
 * check: every 2xx must be stored exactly once. Prints throughput, p50, p99,
 * non-2xx and the server's CPU time; `--write` puts the table in docs/benchmarks.md
 * ("Load" section). Run `npm run build` first.
 *
 *   npm run bench:load -- [--count 10000] [--concurrency 100] [--only sqlite|postgres|proxy] [--write]
 *
 * PostgreSQL: BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; each run
 * gets a fresh schema, dropped afterwards. Redis (proxy run): BENCH_REDIS_URL, else
 * redis://127.0.0.1:6379.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { Agent } from "node:https";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

import * as prettier from "prettier";

import { freshPostgresSchema } from "./lib/postgres.ts";
import {
  formBody,
  inParallel,
  newRegistration,
  postgresRows,
  sqliteRows,
  type StoredRow,
} from "./lib/registrations.ts";
import {
  type ServerProcess,
  cpuTimeMs,
  httpsFetch,
  startCaddy,
  startServer,
} from "./lib/server-process.ts";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "100" },
    only: { type: "string" },
    write: { type: "boolean", default: false },
  },
});
const COUNT = Number(args.count);
const CONCURRENCY = Number(args.concurrency);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const root = path.resolve(import.meta.dirname, "..");

type Result = {
  backend: string;
  count: number;
  ok: number;
  non2xx: Record<string, number>;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  cpuMsPerRequest: number;
  stored: number;
  missing: number;
  duplicated: number;
  load: string;
};

/** User + system CPU time of a process, in milliseconds (Linux /proc). */

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

type Backend = "sqlite" | "postgres" | "proxy";

const labels: Record<Backend, string> = {
  sqlite: "SQLite, 1 server",
  postgres: "PostgreSQL, 1 server",
  proxy: "PostgreSQL, 2 servers behind Caddy (TLS, Redis rate limit)",
};

async function run(backend: Backend): Promise<Result> {
  const schema = backend === "sqlite" ? undefined : await freshPostgresSchema(DATABASE_URL);
  const env = {
    LOG_LEVEL: "info",
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...(backend === "proxy"
      ? { REDIS_URL: REDIS_URL, REDIS_KEY_PREFIX: `bench-${randomUUID()}:`, TRUST_PROXY: "1" }
      : {}),
  };
  const servers: ServerProcess[] = [await startServer({ env })];
  if (backend === "proxy") servers.push(await startServer({ env }));
  const caddy =
    backend === "proxy" ? await startCaddy(servers.map((s) => `127.0.0.1:${s.port}`)) : undefined;
  const agent = caddy ? new Agent({ keepAlive: true, ca: caddy.ca }) : undefined;
  const server = servers[0] as ServerProcess;
  const origin = caddy?.origin ?? server.url;
  // The request the form makes in a browser with JavaScript.
  const send = async (body: string): Promise<number> => {
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      origin,
    };
    if (caddy) {
      const res = await httpsFetch(`${origin}/register-interest`, caddy.ca, {
        method: "POST",
        headers,
        body,
        agent,
      });
      return res.status;
    }
    const response = await fetch(`${origin}/register-interest`, {
      method: "POST",
      headers,
      body,
    });
    await response.arrayBuffer();
    return response.status;
  };
  const cpuOfServers = () => servers.reduce((sum, s) => sum + cpuTimeMs(s.child.pid), 0);
  try {
    const label = `bench-${randomUUID().slice(0, 6)}`;
    const registrations = Array.from({ length: COUNT }, () => newRegistration(label));
    const latencies: number[] = [];
    const acknowledged = new Set<string>();
    const non2xx: Record<string, number> = {};
    let errors = 0;
    const load = loadavg()[0]?.toFixed(1) ?? "?";
    const cpuBefore = cpuOfServers();
    const started = performance.now();
    await inParallel(registrations, CONCURRENCY, async (r) => {
      const t0 = performance.now();
      try {
        const status = await send(formBody(r));
        latencies.push(performance.now() - t0);
        if (status >= 200 && status < 300) acknowledged.add(r.email);
        else non2xx[status] = (non2xx[status] ?? 0) + 1;
      } catch {
        errors += 1;
      }
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuOfServers() - cpuBefore;

    const rows: StoredRow[] = schema ? await postgresRows(schema.url) : sqliteRows(server.dataDir);
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.email, (counts.get(row.email) ?? 0) + 1);
    const missing = [...acknowledged].filter((e) => !counts.has(e)).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;

    latencies.sort((a, b) => a - b);
    return {
      backend: labels[backend],
      count: COUNT,
      ok: acknowledged.size,
      non2xx,
      errors,
      seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
      cpuMsPerRequest: cpu / COUNT,
      stored: rows.length,
      missing,
      duplicated,
      load: `${load} → ${loadavg()[0]?.toFixed(1) ?? "?"}`,
    };
  } finally {
    agent?.destroy();
    await caddy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await schema?.drop();
  }
}

function table(results: Result[]): string {
  const header =
    "| Set-up | Requests | Concurrency | 2xx | Non-2xx | Errors | Requests/s | p50 (ms) | p99 (ms) | Max (ms) | Server CPU ms/request | Stored | Missing | Duplicated | Load average (start → end) |";
  const rule =
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |";
  const lines = results.map((r) => {
    const non2xx = Object.values(r.non2xx).reduce((a, b) => a + b, 0);
    return `| ${r.backend} | ${r.count} | ${CONCURRENCY} | ${r.ok} | ${non2xx} | ${r.errors} | ${(r.count / r.seconds).toFixed(0)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.stored} | ${r.missing} | ${r.duplicated} | ${r.load} |`;
  });
  return [header, rule, ...lines].join("\n");
}

const backends = (["sqlite", "postgres", "proxy"] as const).filter(
  (b) => !args.only || args.only === b,
);
const results: Result[] = [];
for (const backend of backends) {
  console.log(`bench:load: ${COUNT} registrations at concurrency ${CONCURRENCY} on ${backend}…`);
  const result = await run(backend);
  results.push(result);
  console.log(JSON.stringify(result));
}
const output = table(results);
console.log(`\n${output}\n`);

const failed = results.filter((r) => r.missing > 0 || r.duplicated > 0 || r.stored !== r.ok);
if (args.write) {
  const file = path.join(root, "docs", "benchmarks.md");
  const start = "<!-- load:start -->";
  const end = "<!-- load:end -->";
  const text = readFileSync(file, "utf8");
  const block = `${start}\nMeasured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores with \`npm run bench:load -- --write\` (the last column shows how busy the machine was):\n\n${output}\n${end}`;
  const updated = text.includes(start)
    ? text.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block)
    : `${text.trimEnd()}\n\n## Load (\`npm run bench:load\`)\n\n${block}\n`;
  // Formatted as `npm run format` would, so format:check stays green.
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(updated, { ...options, filepath: file }));
  console.log(`bench:load: wrote ${path.relative(root, file)}`);
}
if (failed.length > 0) {
  console.error("bench:load: the ledger does not match the database (see Missing/Duplicated)");
  process.exit(1);
}
