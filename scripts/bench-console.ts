/**
 * The console overview's speed (a benchmark, not a test): `npm run bench:console`.
 *
 * Run `npm run build` first (BUILD_DIR is honoured). For SQLite, then PostgreSQL, it seeds
 * 100,000 registrations spread over a year, with a mix of states (confirmed, unsubscribed,
 * asked for news), sources (half with analytics consent) and outbox rows (a confirmation
 * email and a spreadsheet delivery each, some failed), then times:
 * - the overview's queries alone (`waitingListOverview`, server/operator/overview.ts), in
 *   this process on its own connection;
 * - the whole page, GET /console with a viewer's session, from the production server
 *   started by the one launcher (scripts/lib/server-process.ts);
 * - a manager's look-up of one person by exact address, and the record page it leads to.
 * Each figure is the median (and the slowest) of BENCH_RUNS runs after two warm-up runs.
 *
 * Settings (environment): BENCH_ROWS (100000), BENCH_RUNS (15), BENCH_DATABASE_URL
 * (postgres://postgres@127.0.0.1:5432/test; a schema of its own, dropped afterwards),
 * BENCH_SKIP_POSTGRES=1 to measure SQLite only.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";

import { type Insertable, type Kysely, sql } from "kysely";

import { freshPostgresSchema } from "./lib/postgres.ts";
import { freshDataDir, startServer } from "./lib/server-process.ts";
import { sessionCookie } from "../server/console/session.ts";
import { openDatabase } from "../server/db/database.ts";
import type { Database, OutboxTable, RegistrationsTable } from "../server/db/schema.ts";
import { consoleOrigin, parseEnv } from "../server/env.ts";
import { createLogger } from "../server/logger.ts";
import { waitingListOverview } from "../server/operator/overview.ts";

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const logger = createLogger("warn");
const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator, so both databases get the same mix. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)] as T;
}

const sources = ["google", "facebook", "newsletter", "instagram", "partner-clinic", null];
const media = ["cpc", "social", "email", "referral", null];
const campaigns = ["spring-launch", "trt-awareness", "winter-check", null];
const referrers = ["www.google.com", "m.facebook.com", "l.instagram.com", "news.example", null];
const smtpFailures = ["SMTP 550 5.1.1", "SMTP 552 5.2.2", "SMTP 554 5.7.1", "connect ECONNREFUSED"];

async function seed(db: Kysely<Database>, now: Date): Promise<void> {
  const next = random(42);
  const batch = 500;
  for (let start = 0; start < rows; start += batch) {
    const registrations: Insertable<RegistrationsTable>[] = [];
    const outbox: Insertable<OutboxTable>[] = [];
    for (let i = start; i < Math.min(rows, start + batch); i++) {
      // More recent days get more registrations, as a list that grows.
      const age = Math.floor(365 * DAY * (1 - Math.sqrt(next())));
      const at = new Date(now.getTime() - age).toISOString();
      // Unconfirmed ones older than 30 days are purged daily, so none are seeded.
      const confirmed = age > 30 * DAY || next() < 0.6;
      const recorded = next() < 0.5;
      const id = randomUUID();
      registrations.push({
        id,
        name: `Bench Person ${i}`,
        email: `bench-${i}@example.co.uk`,
        phone: null,
        message: null,
        client_timestamp: null,
        received_at: at,
        idempotency_key: randomUUID(),
        consent_version: "2026-11-23",
        consent_at: at,
        wants_updates: next() < 0.3 ? 1 : 0,
        confirmed_at: confirmed ? at : null,
        unsubscribed_at: confirmed && next() < 0.05 ? at : null,
        source_recorded: recorded ? 1 : 0,
        utm_source: recorded ? pick(next, sources) : null,
        utm_medium: recorded ? pick(next, media) : null,
        utm_campaign: recorded ? pick(next, campaigns) : null,
        referrer_host: recorded ? pick(next, referrers) : null,
      });
      const roll = next();
      // Pending rows fall due only long after the run, so the server's workers leave them be.
      const mailStatus =
        roll < 0.02 ? "dead" : age < 2 * DAY && roll < 0.1 ? "pending" : "delivered";
      const row = (kind: "mail" | "spreadsheet", status: OutboxTable["status"]) => ({
        id: randomUUID(),
        registration_id: id,
        status,
        attempts: status === "pending" ? 0 : 1,
        next_attempt_at: status === "pending" ? "2100-01-01T00:00:00.000Z" : at,
        last_error: status === "dead" ? pick(next, smtpFailures) : null,
        created_at: at,
        delivered_at: status === "delivered" ? at : null,
        kind,
        topic: kind === "mail" ? ("confirmation" as const) : ("registration" as const),
        announcement_id: null,
        dedupe_key: null,
        sending_until: null,
      });
      outbox.push(row("mail", mailStatus));
      outbox.push(row("spreadsheet", roll > 0.995 ? "dead" : "delivered"));
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("registrations").values(registrations).execute();
      await trx.insertInto("outbox").values(outbox).execute();
    });
  }
  const suppressions = Array.from({ length: 1000 }, (_, i) => ({
    email_hash: `bench-${i}`,
    reply: "550 5.1.1",
    suppressed_at: now.toISOString(),
  }));
  await db.insertInto("mail_suppressions").values(suppressions).execute();
  const erasures = Array.from({ length: 200 }, () => ({
    id: randomUUID(),
    email_hash: randomBytes(32).toString("hex"),
    erased_at: now.toISOString(),
    registrations: 1,
    sent_to_spreadsheet: 1,
    spreadsheet_ids: "[]",
  }));
  await db.insertInto("erasures").values(erasures).execute();
}

/** A staff member with a live session, as the console's sign-in leaves one. */
async function staffSession(
  db: Kysely<Database>,
  now: Date,
  role: "viewer" | "manager",
): Promise<string> {
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  const at = now.toISOString();
  await db
    .insertInto("staff")
    .values({
      id,
      email: `bench-${id.slice(0, 8)}@clinic.example`,
      role,
      created_at: at,
      removed_at: null,
    })
    .execute();
  await db
    .insertInto("staff_sessions")
    .values({
      token_hash: createHash("sha256").update(token).digest("hex"),
      staff_id: id,
      created_at: at,
      last_seen_at: at,
    })
    .execute();
  return token;
}

type Timing = { median: number; max: number; cpu: number };

/**
 * Wall time, and this process's CPU time: on SQLite the queries run on this thread, so
 * their CPU time does not depend on what else the machine is doing.
 */
async function timed(run: () => Promise<unknown>): Promise<Timing> {
  await run();
  await run();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await run();
    const { user, system } = process.cpuUsage(used);
    times.push(performance.now() - start);
    cpu.push((user + system) / 1000);
  }
  const median = (values: number[]) =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { median: median(times), max: Math.max(...times), cpu: median(cpu) };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const load = () => `load average ${loadavg()[0]?.toFixed(1) ?? "?"} on ${cpus().length} cores`;

async function measure(label: string, settings: Record<string, string>) {
  const env = parseEnv(settings);
  const now = new Date();
  const { db } = await openDatabase(env, logger);
  let token: string;
  let managerToken: string;
  try {
    const seeding = performance.now();
    await seed(db, now);
    token = await staffSession(db, now, "viewer");
    managerToken = await staffSession(db, now, "manager");
    process.stdout.write(
      `${label}: seeded ${rows} registrations in ${ms(performance.now() - seeding)}\n`,
    );
    const report = async (what: string) => {
      const queries = await timed(() => waitingListOverview(db, new Date()));
      process.stdout.write(
        `${label}: overview queries${what}  median ${ms(queries.median)}, slowest ${ms(queries.max)}, this process's CPU ${ms(queries.cpu)} (${load()})\n`,
      );
    };
    await report("");
    if (env.DATABASE_URL) {
      // A table that grew over a year has been vacuumed and analysed by autovacuum; a
      // table just filled has no statistics, and PostgreSQL then sorts to group.
      for (const table of ["registrations", "outbox"]) {
        await sql`vacuum analyze ${sql.table(table)}`.execute(db);
      }
      await report(" after VACUUM ANALYZE");
    }
  } finally {
    await db.destroy();
  }

  const server = await startServer({ env: settings });
  try {
    const port = await consolePort(server.output);
    const page = await timed(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/console`, {
        headers: { cookie: `${sessionCookie(consoleOrigin(env)).name}=${token}` },
        redirect: "manual",
      });
      const body = await response.text();
      if (response.status !== 200 || !body.includes("Registrations per day")) {
        throw new Error(`GET /console answered ${response.status}`);
      }
    });
    process.stdout.write(
      `${label}: GET /console page  median ${ms(page.median)}, slowest ${ms(page.max)} (${load()})\n`,
    );
    // A manager's look-up as People does it: the exact address posted, then the record
    // page it redirects to. A different person each time, spread over the table.
    let lookups = 0;
    const lookUp = await timed(async () => {
      const email = `bench-${(lookups++ * 7919) % rows}@example.co.uk`;
      const found = await fetch(`http://127.0.0.1:${port}/console/people`, {
        method: "POST",
        headers: {
          cookie: `${sessionCookie(consoleOrigin(env)).name}=${managerToken}`,
          origin: "http://localhost:3001",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ intent: "find", email }),
        redirect: "manual",
      });
      const location = found.headers.get("location");
      await found.text();
      if (found.status !== 303 || !location) throw new Error(`look-up answered ${found.status}`);
      const record = await fetch(new URL(location, `http://127.0.0.1:${port}`), {
        headers: { cookie: `${sessionCookie(consoleOrigin(env)).name}=${managerToken}` },
      });
      if (record.status !== 200 || !(await record.text()).includes("Bench Person")) {
        throw new Error(`the record page answered ${record.status}`);
      }
    });
    process.stdout.write(
      `${label}: a person's look-up (POST /console/people, then the record)  median ${ms(lookUp.median)}, slowest ${ms(lookUp.max)} (${load()})\n`,
    );
  } finally {
    await server.stop();
  }
}

/** The console's port, from its "console listening" log line (it may follow "listening"). */
async function consolePort(output: readonly string[]): Promise<number> {
  for (let wait = 0; wait < 50; wait++) {
    const line = output.find((l) => l.includes('"console listening"'));
    if (line) return (JSON.parse(line) as { port: number }).port;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the console did not say where it listens:\n${output.join("\n")}`);
}

const dataDir = freshDataDir();
try {
  await measure("SQLite", { DATA_DIR: dataDir, CONSOLE_URL: "http://localhost:3001" });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.BENCH_SKIP_POSTGRES !== "1") {
  const schema = await freshPostgresSchema(postgresUrl);
  const postgresDir = freshDataDir();
  try {
    await measure("PostgreSQL", {
      DATABASE_URL: schema.url,
      DATA_DIR: postgresDir,
      CONSOLE_URL: "http://localhost:3001",
    });
  } finally {
    await schema.drop();
    rmSync(postgresDir, { recursive: true, force: true });
  }
}
