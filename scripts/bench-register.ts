/**
 * Registration throughput benchmark (a benchmark, not a test): `npm run bench:register`.
 *
 * Builds nothing: run `npm run build` first (BUILD_DIR is honoured). For SQLite and then
 * PostgreSQL it starts the production server on loopback with the rate limit raised,
 * measures a plain GET /healthz baseline, then POSTs valid registrations to
 * /register-interest exactly as the no-JavaScript form does (urlencoded body, same-origin
 * Origin header, no idempotency key: the server derives one), then to
 * /register-interest with Accept: application/json as the form's script does (with a fresh key). Each of the two
 * registration measurements runs on a fresh database and a fresh server, so neither
 * inherits the other's rows or unsent mail. Every 303 (no JavaScript) or 200 (with JavaScript) is a durable
 * acknowledgement: the server commits the row and its queued confirmation email (SQLite
 * WAL with synchronous=FULL, or a PostgreSQL commit) before it answers. After each
 * measurement it checks that the stored rows match the acknowledgements.
 *
 * Settings (environment): BENCH_DURATION seconds per measurement (15),
 * BENCH_CONNECTIONS (32), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test),
 * BENCH_SKIP_POSTGRES=1 to measure SQLite only.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import autocannon from "autocannon";
import pg from "pg";

import { type ServerProcess, cpuTimeMs, startServer } from "./lib/server-process.ts";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = process.env.BUILD_DIR ?? "build";
const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function startBenchServer(env: Record<string, string>): Promise<ServerProcess> {
  return startServer({
    env: {
      BUILD_DIR: buildDir,
      RATE_LIMIT_PER_MINUTE: "1000000000",
      RATE_LIMIT_PER_DAY: "1000000000",
      ...env,
    },
    // The request logs of a run would fill the memory.
    keepOutput: false,
  });
}

type Figures = {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
  /** Server CPU time (user + system) per answered request: independent of other load. */
  cpuMs: number;
};

/** `success` is the status that acknowledges: 200, or 303 for the form posted without JavaScript. */
async function run(
  server: ServerProcess,
  label: string,
  options: autocannon.Options,
  success = 200,
): Promise<Figures> {
  const cpuBefore = cpuTimeMs(server.child.pid);
  const result = await autocannon({ connections, duration, ...options });
  const answered = result["2xx"] + result.non2xx;
  const ok = result.statusCodeStats?.[`${success}`]?.count ?? 0;
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    bad: result.errors + result.timeouts + (answered - ok),
    cpuMs: (cpuTimeMs(server.child.pid) - cpuBefore) / Math.max(1, answered),
  };
}

/**
 * The form's fields. Without JavaScript a browser sends no idempotency key and no
 * timestamp (the page's script fills them in), so the server derives the key and
 * answers 303 to the thank-you page (docs/decisions/089); with JavaScript both are sent.
 */
function registrationRequests(origin: string, javaScript: boolean): autocannon.Options {
  const runId = randomUUID().slice(0, 8);
  let n = 0;
  return {
    url: origin,
    requests: [
      {
        method: "POST",
        path: "/register-interest",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin,
          ...(javaScript ? { accept: "application/json" } : {}),
        },
        setupRequest(request) {
          n++;
          const body = new URLSearchParams({
            name: `Bench Visitor ${n}`,
            email: `bench-${runId}-${n}@example.co.uk`,
            phone: "07700 900123",
            message: "Benchmark registration",
            website: "",
            ...(javaScript
              ? { idempotencyKey: randomUUID(), clientTimestamp: new Date().toISOString() }
              : {}),
          }).toString();
          return { ...request, body };
        },
      },
    ],
  };
}

/** A database of its own for one measurement: the server's settings, a row count, a drop. */
type Store = {
  env: Record<string, string>;
  count: () => Promise<number>;
  drop: () => Promise<void>;
};

/**
 * One server on a fresh store, warmed up (JIT, pools, the page render) before `measureOn` runs.
 * Each registration measurement gets its own: the JavaScript path's figure must not depend
 * on how many rows, and how much unsent mail, the measurement before it left behind.
 */
async function onFreshServer<T>(
  freshStore: () => Promise<Store>,
  measureOn: (server: ServerProcess, store: Store) => Promise<T>,
): Promise<T> {
  const store = await freshStore();
  try {
    const server = await startBenchServer(store.env);
    try {
      await autocannon({ url: `${server.url}/healthz`, connections, duration: 2 });
      return await measureOn(server, store);
    } finally {
      await server.stop();
    }
  } finally {
    await store.drop();
  }
}

/** A registration measurement with its durability check: acknowledged against stored. */
async function measureRegistrations(
  server: ServerProcess,
  store: Store,
  label: string,
  options: autocannon.Options,
  success = 200,
) {
  const before = await store.count();
  const figures = await run(server, label, options, success);
  return { figures, acknowledged: figures.ok, stored: (await store.count()) - before };
}

async function measure(database: string, freshStore: () => Promise<Store>) {
  const [healthz, noJs] = await onFreshServer(
    freshStore,
    async (server, store) =>
      [
        await run(server, `${database}: GET /healthz`, { url: `${server.url}/healthz` }),
        await measureRegistrations(
          server,
          store,
          `${database}: POST /register-interest (form without JavaScript, 303 to the thank-you page)`,
          registrationRequests(server.url, false),
          303,
        ),
      ] as const,
  );
  const withJs = await onFreshServer(freshStore, (server, store) =>
    measureRegistrations(
      server,
      store,
      `${database}: POST /register-interest as JSON (form with JavaScript)`,
      registrationRequests(server.url, true),
    ),
  );
  return {
    rows: [healthz, noJs.figures, withJs.figures],
    checks: [
      verdict(`${database}, no JavaScript`, noJs),
      verdict(`${database}, JavaScript`, withJs),
    ],
  };
}

/**
 * Every acknowledged registration must be stored. A few more rows than acknowledgements
 * is expected: requests still in flight when a measurement ends are stored but uncounted.
 */
function verdict(database: string, m: { stored: number; acknowledged: number }): string {
  const ok = m.stored >= m.acknowledged && m.stored <= m.acknowledged + connections * 2;
  if (!ok) process.exitCode = 1;
  return `${database}: ${m.acknowledged} acknowledged, ${m.stored} stored (${ok ? "ok" : "MISMATCH"})`;
}

function table(rows: Figures[]): string {
  const lines = [
    "| Measurement | Requests/s | p50 (ms) | p99 (ms) | 2xx | Errors + non-2xx | Server CPU ms/request | Requests/s per core at that cost |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.bad} | ${r.cpuMs.toFixed(2)} | ${Math.round(1000 / r.cpuMs)} |`,
    );
  }
  return lines.join("\n");
}

async function main() {
  if (!existsSync(path.join(root, buildDir, "server", "index.js"))) {
    console.error(`No production build in ${buildDir}/: run \`npm run build\` first.`);
    process.exit(1);
  }
  console.log(
    `bench:register: ${connections} connections, ${duration} s per measurement, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start\n`,
  );
  const all: Figures[] = [];
  const checks: string[] = [];

  const sqliteStore = (): Promise<Store> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "clinic-bench-"));
    return Promise.resolve({
      env: { DATA_DIR: dataDir },
      count: () => {
        const db = new DatabaseSync(path.join(dataDir, "registrations.sqlite"), {
          readOnly: true,
        });
        try {
          const row = db.prepare("SELECT COUNT(*) AS n FROM registrations").get() as { n: number };
          return Promise.resolve(Number(row.n));
        } finally {
          db.close();
        }
      },
      drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
    });
  };
  const sqlite = await measure("SQLite", sqliteStore);
  all.push(...sqlite.rows);
  checks.push(...sqlite.checks);

  if (process.env.BENCH_SKIP_POSTGRES !== "1") {
    // A fresh schema per measurement, dropped afterwards, so the benchmark touches no other data.
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    let stores = 0;
    const postgresStore = async (): Promise<Store> => {
      const schema = `bench_register_${process.pid}_${++stores}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(postgresUrl);
      url.searchParams.set("options", `-c search_path=${schema}`);
      const dataDir = mkdtempSync(path.join(tmpdir(), "clinic-bench-"));
      return {
        env: { DATABASE_URL: url.href, DATA_DIR: dataDir },
        count: async () => {
          const res = await admin.query<{ n: string }>(
            `SELECT COUNT(*) AS n FROM ${schema}.registrations`,
          );
          return Number(res.rows[0]?.n ?? 0);
        },
        drop: async () => {
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    };
    try {
      const postgres = await measure("PostgreSQL", postgresStore);
      all.push(...postgres.rows);
      checks.push(...postgres.checks);
    } finally {
      await admin.end();
    }
  }

  console.log(table(all));
  console.log(`\nLoad average at the end: ${loadavg()[0]?.toFixed(1)}`);
  console.log(`\nDurability check: ${checks.join("; ")}`);
}

await main();
