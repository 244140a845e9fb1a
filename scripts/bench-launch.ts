/**
 * Launch day in one run (a benchmark, not a test): `npm run bench:launch -- [--only sqlite|postgres|proxy]`.
 * Run `npm run build` first. Three set-ups, each with the production server sending to the
 * test SMTP server (scripts/lib/mail-catcher.ts, answering at once): SQLite and one server;
 * PostgreSQL and one server; two servers behind Caddy (TLS, the shipped deploy/Caddyfile) on
 * PostgreSQL with a Redis rate-limit store. In each:
 *   1. a burst of BENCH_BURST registrations through the form's endpoint (20 in flight): each
 *      confirmation's delay after its own registration's answer (matched by recipient and the
 *      time the mail server accepted it), and confirmations a second from the first
 *      registration to the last confirmation; on SQLite, the burst again without SMTP_URL,
 *      timed by each .eml file's write;
 *   2. BENCH_PEOPLE confirmed people (the burst's, confirmed in the database, and the rest
 *      written there directly) and an announcement to them at MAIL_PER_MINUTE, submitted with
 *      the CLI, approved in the database, queued with the CLI: its rate against the setting;
 *   3. visitors at a fixed BENCH_VISITS_PER_SECOND (mostly prerendered and server-rendered
 *      pages, one request in ten a registration, which queues a confirmation too) for the
 *      send's planned span before it (the baseline) and while it sends: p50 and p99;
 *   4. the ledger: once the first announcement arrives, a few people are erased (the CLI) and a
 *      few unsubscribe (their confirmation's one-click List-Unsubscribe); afterwards every other
 *      person must have it exactly once, and no one after their erase or unsubscribe returned.
 * Prints a table per set-up and a summary; exits 1 only on a ledger violation.
 *
 * Per-address rate limits are raised in the servers' environment (scripts/lib/server-process.ts),
 * as Caddy replaces a client's X-Forwarded-For: every visitor comes from one address.
 * Settings (environment): BENCH_BURST (2000), BENCH_PEOPLE (5000), BENCH_PER_MINUTE (6000),
 * BENCH_VISITS_PER_SECOND (20), BENCH_MAIL_CONNECTIONS (the server's default when unset),
 * BENCH_SMTP_DELAY_MS (0: how long the mail server takes to answer, as a distant provider
 * would), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test: a fresh schema per run,
 * dropped after), BENCH_REDIS_URL (redis://127.0.0.1:6379), BENCH_CPU_PROFILE (a directory: each
 * server writes a V8 CPU profile there when it stops, for Chrome's DevTools or a script).
 * The mail server keeps messages unparsed: its CPU is a provider's, not the site's.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { Agent } from "node:https";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";

import pg from "pg";

import { startMailCatcher } from "./lib/mail-catcher.ts";
import { freshPostgresSchema } from "./lib/postgres.ts";
import {
  approveSubmitted,
  formBody,
  inParallel,
  newRegistration,
  registrationsCli,
} from "./lib/registrations.ts";
import {
  type Caddy,
  type ServerProcess,
  freePort,
  httpsFetch,
  startCaddy,
  startServer,
} from "./lib/server-process.ts";
import { startVisitors, type Visit } from "./lib/visitors.ts";
import { prerenderedPaths } from "../app/prerendered-paths.ts";
import { timeOrderedId } from "../server/db/writes.ts";

const { values: args } = parseArgs({ options: { only: { type: "string" } } });
const BURST = Number(process.env.BENCH_BURST ?? 2000);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 5000);
const PER_MINUTE = Number(process.env.BENCH_PER_MINUTE ?? 6000);
const VISITS_PER_SECOND = Number(process.env.BENCH_VISITS_PER_SECOND ?? 20);
const CONNECTIONS = process.env.BENCH_MAIL_CONNECTIONS;
const SMTP_DELAY_MS = Number(process.env.BENCH_SMTP_DELAY_MS ?? 0);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;
/** How many people are erased, and how many unsubscribe, during the send. */
const LEAVERS = Math.min(5, Math.floor(BURST / 2));

type Backend = "sqlite" | "postgres" | "proxy";
const labels: Record<Backend, string> = {
  sqlite: "SQLite, 1 server",
  postgres: "PostgreSQL, 1 server",
  proxy: "PostgreSQL, 2 servers behind Caddy",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${Math.round(value)} ms`;
const spread = (values: number[]) =>
  `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))} / ${ms(Math.max(...values))}`;
const load = () => loadavg()[0]?.toFixed(1) ?? "?";
/** A process's CPU time so far (user and system), in seconds, from Linux's /proc. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The site as a visitor reaches it: the server itself, or Caddy over TLS. */
type Client = {
  origin: string;
  request(pathname: string, init?: { method?: string; body?: string }): Promise<number>;
  close(): void;
};

function clientOf(origin: string, caddy?: Caddy): Client {
  const agent = caddy ? new Agent({ keepAlive: true, ca: caddy.ca }) : undefined;
  return {
    origin,
    async request(pathname, init = {}) {
      const headers: Record<string, string> = init.body
        ? { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }
        : {};
      // The form's POST is same-origin; a mail provider's one-click unsubscribe has no Origin.
      if (init.body && pathname === "/register-interest") headers.origin = origin;
      const method = init.method ?? "GET";
      if (caddy)
        return (await httpsFetch(`${origin}${pathname}`, caddy.ca, { ...init, headers, agent }))
          .status;
      const response = await fetch(`${origin}${pathname}`, { method, headers, body: init.body });
      await response.arrayBuffer();
      return response.status;
    },
    close: () => agent?.destroy(),
  };
}

/** Plain SQL on either database (`?` placeholders): the benchmark's own writes. */
type Sql = { run(statement: string, params?: unknown[]): Promise<void>; close(): Promise<void> };

function sqliteSql(dataDir: string): Sql {
  const db = new DatabaseSync(path.join(dataDir, "registrations.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  return {
    run: (statement, params = []) =>
      Promise.resolve(void db.prepare(statement).run(...(params as string[]))),
    close: () => Promise.resolve(db.close()),
  };
}

async function postgresSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async run(statement, params = []) {
      let n = 0;
      await client.query(
        statement.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
    close: () => client.end(),
  };
}

/** As the island and mail providers do: 408, 429 and 503 tried again after 1, 2, 4 and 8 s. */
async function patiently(send: () => Promise<number>): Promise<{ status: number; tries: number }> {
  for (let tries = 1; ; tries += 1) {
    const status = await send();
    if (![408, 429, 503].includes(status) || tries === 5) return { status, tries };
    await sleep(1000 * 2 ** (tries - 1));
  }
}

/** Registers `count` new people, 20 at a time: when each was answered, by address. */
async function burst(client: Client, label: string, count: number) {
  const crowd = Array.from({ length: count }, () => newRegistration(label));
  const answeredAt = new Map<string, number>();
  let retried = 0;
  const started = Date.now();
  await inParallel(crowd, 20, async (person) => {
    const body = formBody(person);
    const { status, tries } = await patiently(() =>
      client.request("/register-interest", { method: "POST", body }),
    );
    if (status !== 200) throw new Error(`a registration was answered ${status}, ${tries} times`);
    if (tries > 1) retried += 1;
    answeredAt.set(person.email.toLowerCase(), Date.now());
  });
  return { emails: crowd.map((p) => p.email.toLowerCase()), answeredAt, started, retried };
}

/** Each confirmation's delay after its registration's answer, and the rate over the burst. */
function confirmations(
  registered: Awaited<ReturnType<typeof burst>>,
  receivedAt: Map<string, number>,
  what: string,
): Array<[string, string]> {
  const delays = registered.emails.map(
    (email) => (receivedAt.get(email) ?? NaN) - (registered.answeredAt.get(email) ?? NaN),
  );
  const last = Math.max(...receivedAt.values());
  const perSecond = (1000 * registered.emails.length) / (last - registered.started);
  return [
    [`  ${what}: delay after the answer, p50 / p99 / max`, spread(delays)],
    [`  ${what} a second, first registration to last`, perSecond.toFixed(1)],
    [`  ${what}: registrations answered 503 first, then tried again`, String(registered.retried)],
  ];
}

/** p50 / p99, how many, and how many were not answered 200. */
function visitFigures(visits: Visit[]): string {
  const latencies = visits.map((v) => v.ms);
  const seconds =
    (Math.max(...visits.map((v) => v.at)) - Math.min(...visits.map((v) => v.at))) / 1000;
  const failed = visits.filter((v) => v.status !== "200").length;
  return `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} (${visits.length} in ${seconds.toFixed(0)} s, ${failed} not 200)`;
}

const p99ByKind = (visits: Visit[]) =>
  (["pages", "rendered", "registrations"] as const)
    .map((kind) =>
      ms(
        percentile(
          visits.filter((v) => v.kind === kind).map((v) => v.ms),
          99,
        ),
      ),
    )
    .join(" / ");

type Ledger = {
  expected: number;
  once: number;
  twice: number;
  missing: number;
  afterLeaving: number;
  leftBeforeTheirTurn: number;
};

type SetUp = { figures: Array<[string, string]>; ledger: Ledger; details: string[] };

/** The server's warnings and errors (pino levels 40 and up): what to read when the ledger breaks. */
function warningsOf(server: ServerProcess): string[] {
  const lines: string[] = [];
  let buffered = "";
  server.child.stdout?.on("data", (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split("\n");
    buffered = complete.pop() ?? "";
    for (const line of complete) if (/"level":(4|5|6)0/.test(line)) lines.push(line);
  });
  return lines;
}

async function launchDay(backend: Backend): Promise<SetUp> {
  const figures: Array<[string, string]> = [];
  const loadAtStart = load();
  const mail = await startMailCatcher({ parse: false });
  mail.delayMs = SMTP_DELAY_MS;
  const schema = backend === "sqlite" ? undefined : await freshPostgresSchema(DATABASE_URL);
  const servers: ServerProcess[] = [];
  let caddy: Caddy | undefined;
  let client: Client | undefined;
  let sql: Sql | undefined;
  try {
    const port = await freePort();
    const origin = backend === "proxy" ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
    const env = {
      ...(CPU_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROFILE}` } : {}),
      MAIL_PER_MINUTE: String(PER_MINUTE),
      ...(CONNECTIONS ? { MAIL_CONNECTIONS: CONNECTIONS } : {}),
      SMTP_URL: mail.url,
      MAIL_FROM: "Bench <hello@clinic.test>",
      SITE_URL: origin,
      ...(schema ? { DATABASE_URL: schema.url } : {}),
      ...(backend === "proxy"
        ? { REDIS_URL, REDIS_KEY_PREFIX: `bench-launch-${randomUUID()}:`, TRUST_PROXY: "1" }
        : {}),
    };
    if (backend === "proxy") {
      servers.push(await startServer({ env, keepOutput: false }));
      servers.push(await startServer({ env, keepOutput: false }));
      caddy = await startCaddy(
        servers.map((s) => `127.0.0.1:${s.port}`),
        { port },
      );
    } else servers.push(await startServer({ env, port, keepOutput: false }));
    client = clientOf(origin, caddy);
    const warnings = servers.map(warningsOf);
    const dataDir = (servers[0] as ServerProcess).dataDir;
    const cliEnv = {
      DATA_DIR: dataDir,
      MAIL_PER_MINUTE: String(PER_MINUTE),
      ...(schema ? { DATABASE_URL: schema.url } : {}),
    };

    // 1. The burst, and its confirmations.
    const label = `bench-${randomUUID().slice(0, 6)}`;
    const registered = await burst(client, label, BURST);
    const firstMail = new Map<string, number>();
    const confirmed = await until(() => {
      for (const m of mail.messages) if (!firstMail.has(m.to)) firstMail.set(m.to, m.receivedAt);
      return registered.emails.every((e) => firstMail.has(e));
    }, 600_000);
    if (!confirmed) throw new Error("not every confirmation arrived within 10 minutes");
    figures.push([`${BURST} registrations, mail over SMTP`, ""]);
    figures.push(...confirmations(registered, firstMail, "emails"));

    // 2. Everyone confirmed, and the rest of the people written straight into the database.
    sql = schema ? await postgresSql(schema.url) : sqliteSql(dataDir);
    const now = new Date().toISOString();
    await sql.run(
      "UPDATE registrations SET confirmed_at = ?, wants_updates = 1 WHERE confirmed_at IS NULL",
      [now],
    );
    const seeded = Array.from(
      { length: Math.max(0, PEOPLE - BURST) },
      (_, i) => `${label}-seed-${i}@example.co.uk`,
    );
    for (let from = 0; from < seeded.length; from += 500) {
      const rows = seeded.slice(from, from + 500);
      await sql.run(
        `INSERT INTO registrations (id, name, email, received_at, idempotency_key, consent_version,
           consent_at, wants_updates, confirmed_at) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, 1, ?)").join(", ")}`,
        rows.flatMap((email, i) => [
          timeOrderedId(),
          `Bench Person ${from + i}`,
          email,
          now,
          randomUUID(),
          "2026-11-23",
          now,
          now,
        ]),
      );
    }
    const people = [...registered.emails, ...seeded];

    // 3. The baseline: visitors for the send's planned span, no announcement.
    const plannedMs = Math.max(10_000, ((people.length - 1) * 60_000) / PER_MINUTE);
    const plan = {
      origin: client.origin,
      ca: caddy?.ca,
      perSecond: VISITS_PER_SECOND,
      pages: prerenderedPaths,
    };
    const before = startVisitors(plan);
    await sleep(plannedMs);
    const baseline = await before.stop();

    // 2, continued: the announcement, submitted, approved and queued.
    const subject = `Bench ${label}`;
    const textFile = path.join(dataDir, "announce.txt");
    writeFileSync(textFile, "Our doors open today.\n");
    const announce = () =>
      registrationsCli(cliEnv, ["announce", "--subject", subject, "--text-file", textFile]);
    const submitted = await announce();
    if (backend === "sqlite") approveSubmitted(submitted, dataDir);
    else {
      const id = /\/console\/announcements\/draft\?id=([\w-]+)/.exec(submitted)?.[1];
      if (!id) throw new Error(`announce did not submit a draft:\n${submitted}`);
      await sql.run(
        "UPDATE announcement_drafts SET state = 'approved', approved_at = ? WHERE id = ? AND state = 'submitted'",
        [new Date().toISOString(), id],
      );
    }
    const queued = await announce();
    const queuedCount = Number(/for ([\d,]+) address/.exec(queued)?.[1]?.replace(/,/g, "") ?? NaN);
    const queuedAt = Date.now();
    const serversCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.child.pid), 0);
    const cpuAtQueue = { servers: serversCpu(), bench: process.cpuUsage() };
    const announcements = () => mail.messages.filter((m) => m.header("subject") === subject);

    // 4. While it sends: the earliest registrants, whose emails are queued last, leave.
    const leftAt = new Map<string, number>();
    let leavingFrom = Infinity;
    const erased = registered.emails.slice(0, LEAVERS);
    const unsubscribed = registered.emails.slice(LEAVERS, 2 * LEAVERS);
    const leaving = (async () => {
      await until(() => announcements().length > 0, 600_000);
      leavingFrom = Date.now();
      // Staff erase one address after another; mail providers unsubscribe independently.
      const erasing = (async () => {
        for (const email of erased) {
          // Staff run it again when the database was too busy.
          const { status } = await patiently(() =>
            registrationsCli(cliEnv, ["erase", "--email", email], { lowPriority: true }).then(
              () => 200,
              () => 503,
            ),
          );
          if (status !== 200) throw new Error(`erase --email ${email} failed five times`);
          leftAt.set(email, Date.now());
        }
      })();
      await Promise.all([
        erasing,
        ...unsubscribed.map(async (email) => {
          const link = mail.to(email)[0]?.header("list-unsubscribe")?.replace(/^<|>$/g, "");
          if (!link) throw new Error(`no List-Unsubscribe in ${email}'s confirmation`);
          const url = new URL(link);
          const { status } = await patiently(() =>
            (client as Client).request(`${url.pathname}${url.search}`, {
              method: "POST",
              body: "List-Unsubscribe=One-Click",
            }),
          );
          if (status !== 200) throw new Error(`one-click unsubscribe answered ${status}`);
          leftAt.set(email, Date.now());
        }),
      ]);
    })();
    // Its failure is thrown where it is awaited, after the send, not as an unhandled rejection.
    leaving.catch(() => {});
    const leavers = new Set([...erased, ...unsubscribed]);
    const remaining = people.filter((e) => !leavers.has(e));
    const during = startVisitors(plan);
    const allArrived = await until(
      () => {
        const got = new Set(announcements().map((m) => m.to));
        return remaining.every((e) => got.has(e));
      },
      Math.max(120_000, 10 * plannedMs),
    );
    await leaving;
    // Late or second copies would arrive now.
    await sleep(2_000);
    await sleep(queuedAt + plannedMs - Date.now());
    const sending = await during.stop();
    const cpu = {
      servers: serversCpu() - cpuAtQueue.servers,
      bench: process.cpuUsage(cpuAtQueue.bench),
    };

    const received = announcements();
    const times = received.map((m) => m.receivedAt).sort((a, b) => a - b);
    const spanMs = (times.at(-1) ?? NaN) - (times[0] ?? NaN);
    const perMinute = ((received.length - 1) * 60_000) / spanMs;
    figures.push([`announcement to ${people.length} at ${PER_MINUTE}/min`, ""]);
    figures.push(["  queued by the CLI", String(queuedCount)]);
    figures.push([
      "  first to last email",
      `${(spanMs / 1000).toFixed(1)} s${allArrived ? "" : " (timed out)"}`,
    ]);
    figures.push([
      "  emails a minute (% of the setting)",
      `${Math.round(perMinute)} (${Math.round((100 * perMinute) / PER_MINUTE)}%)`,
    ]);

    const p99 = (visits: Visit[]) =>
      percentile(
        visits.map((v) => v.ms),
        99,
      );
    // The erase commands start Node processes: on a small machine they stall everyone a moment.
    const leavingUntil = Math.max(...leftAt.values());
    const quiet = sending.filter((v) => v.at < leavingFrom || v.at > leavingUntil);
    figures.push([
      "  CPU while it sends: servers (per email) / this benchmark",
      `${cpu.servers.toFixed(1)} s (${((1000 * cpu.servers) / received.length).toFixed(2)} ms) / ${((cpu.bench.user + cpu.bench.system) / 1e6).toFixed(1)} s`,
    ]);
    figures.push([`visitors at ${VISITS_PER_SECOND}/s, p50 / p99`, ""]);
    figures.push(["  before the send", visitFigures(baseline)]);
    figures.push(["  while it sends", visitFigures(sending)]);
    figures.push(["  while it sends, but not while people leave", visitFigures(quiet)]);
    figures.push(["  p99 of pages / rendered / registrations, before", p99ByKind(baseline)]);
    figures.push(["  p99 of pages / rendered / registrations, while", p99ByKind(sending)]);
    figures.push(["  p99 while it sends / before", (p99(sending) / p99(baseline)).toFixed(2)]);

    const copies = new Map<string, number[]>();
    for (const m of received) copies.set(m.to, [...(copies.get(m.to) ?? []), m.receivedAt]);
    const ledger: Ledger = {
      expected: remaining.length,
      once: remaining.filter((e) => copies.get(e)?.length === 1).length,
      twice: [...copies.values()].filter((c) => c.length > 1).length,
      missing: remaining.filter((e) => !copies.has(e)).length,
      afterLeaving: [...leavers].filter((e) =>
        (copies.get(e) ?? []).some((at) => at > (leftAt.get(e) ?? Infinity)),
      ).length,
      leftBeforeTheirTurn: [...leavers].filter((e) => !copies.has(e)).length,
    };
    figures.push([`ledger: ${LEAVERS} erased and ${LEAVERS} unsubscribed during the send`, ""]);
    figures.push([
      "  expected / once / twice / missing",
      `${ledger.expected} / ${ledger.once} / ${ledger.twice} / ${ledger.missing}`,
    ]);
    figures.push(["  after their erasure or unsubscribe", String(ledger.afterLeaving)]);
    figures.push([
      "  leavers not sent it (left before their turn)",
      `${ledger.leftBeforeTheirTurn} of ${leavers.size}`,
    ]);

    if (backend === "sqlite") figures.push(...(await toFiles()));
    figures.push(["load average (1 min), start → end", `${loadAtStart} → ${load()}`]);
    const firstAt = times[0] ?? 0;
    const details = [
      ...[...copies]
        .filter(([e, c]) => c.length > 1 || c.some((at) => at > (leftAt.get(e) ?? Infinity)))
        .map(
          ([e, c]) =>
            `${e}: copies at ${c.map((at) => `${at - firstAt} ms`).join(", ")} after the first announcement${leftAt.has(e) ? `; left at ${(leftAt.get(e) ?? 0) - firstAt} ms` : ""}`,
        ),
      ...warnings.flatMap((lines, i) => lines.map((line) => `server ${i + 1}: ${line}`)),
    ];
    return { figures, ledger, details };
  } finally {
    client?.close();
    await sql?.close();
    await caddy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await mail.close();
    await schema?.drop();
  }
}

/** The burst on SQLite with SMTP_URL unset: each confirmation timed by its .eml file's write. */
async function toFiles(): Promise<Array<[string, string]>> {
  const server = await startServer({
    env: {
      MAIL_PER_MINUTE: String(PER_MINUTE),
      ...(CONNECTIONS ? { MAIL_CONNECTIONS: CONNECTIONS } : {}),
    },
    keepOutput: false,
  });
  try {
    const registered = await burst(clientOf(server.url), "bench-files", BURST);
    const directory = path.join(server.dataDir, "mail");
    const files = () => {
      try {
        return readdirSync(directory).filter((f) => f.endsWith(".eml"));
      } catch {
        return [];
      }
    };
    if (!(await until(() => files().length >= BURST, 600_000)))
      throw new Error("not every confirmation was written within 10 minutes");
    const writtenAt = new Map<string, number>();
    for (const name of files()) {
      const file = path.join(directory, name);
      const to = /^To: (?:.*<)?([^<>\s]+@[^<>\s]+)>?\s*$/m.exec(readFileSync(file, "utf8"))?.[1];
      if (to) writtenAt.set(to.toLowerCase(), statSync(file).mtimeMs);
    }
    return [
      [`${BURST} registrations, no SMTP_URL (on SQLite only): mail as files`, ""],
      ...confirmations(registered, writtenAt, "files"),
    ];
  } finally {
    await server.stop();
  }
}

function printTable(title: string, header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

const chosen = (["sqlite", "postgres", "proxy"] as const).filter(
  (b) => !args.only || args.only === b,
);
if (chosen.length === 0) throw new Error("--only is one of: sqlite, postgres, proxy");
const results = new Map<Backend, SetUp>();
for (const backend of chosen) {
  console.log(`bench:launch: ${labels[backend]}…`);
  const result = await launchDay(backend);
  results.set(backend, result);
  printTable(labels[backend], ["what", "figure"], result.figures);
}

const settings = `${BURST} registrations in the burst, ${PEOPLE} people, MAIL_PER_MINUTE ${PER_MINUTE}, MAIL_CONNECTIONS ${CONNECTIONS ?? "default"}, SMTP answers after ${SMTP_DELAY_MS} ms, visitors ${VISITS_PER_SECOND}/s, ${cpus().length} cores, load average now ${loadavg()
  .map((l) => l.toFixed(1))
  .join(" ")}`;
const figureNames = [...new Set([...results.values()].flatMap((r) => r.figures.map(([k]) => k)))];
printTable(
  `Summary: ${settings}`,
  ["what", ...chosen.map((b) => labels[b])],
  figureNames.map((name) => [
    name,
    ...chosen.map((b) => results.get(b)?.figures.find(([k]) => k === name)?.[1] ?? "n/a"),
  ]),
);

const broken = [...results].filter(
  ([, { ledger }]) => ledger.twice > 0 || ledger.missing > 0 || ledger.afterLeaving > 0,
);
if (broken.length > 0) {
  for (const [backend, { details }] of broken) {
    console.error(`\n${labels[backend]}: the addresses at fault, then the servers' warnings`);
    for (const line of details.slice(0, 60)) console.error(line);
  }
  console.error(
    `\nbench:launch: the ledger is broken on ${broken.map(([b]) => labels[b]).join(", ")} (twice, missing or after leaving)`,
  );
  process.exit(1);
}
