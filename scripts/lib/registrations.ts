/**
 * Registrations as tests and benchmarks make them: the one builder, the form
 * posted as a browser posts it, a ledger of what the server acknowledged, and reads of
 * what it stored.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";

import type { Selectable } from "kysely";
import pg from "pg";

import type { NewRegistration } from "../../contract/registrations.ts";
import type { RegistrationsTable } from "../../server/db/schema.ts";

let counter = 0;

export type CliResult = { status: number; stdout: string; stderr: string };

/**
 * `npm run registrations -- …` (or `staff -- …`, with "staff" first) as staff run it, `env`
 * naming the database: the CLI's own code (server/cli/run.ts) in this process, so that a look
 * costs no Node start (the starts took 139 CPU-seconds of an end-to-end run's 1,890:
 * docs/benchmarks.md). Asynchronous, so what the test serves from its own process meanwhile
 * (an SMTP server) keeps answering.
 */
export async function operatorCli(env: Record<string, string>, args: string[]): Promise<CliResult> {
  // Imported here, not above: most importers of this module need none of the server.
  const [{ runCli }, { parseEnv }, { createLogger }, { openServices }] = await Promise.all([
    import("../../server/cli/run.ts"),
    import("../../server/env.ts"),
    import("../../server/logger.ts"),
    import("../../server/services.ts"),
  ]);
  const result = { status: 0, stdout: "", stderr: "" };
  result.status = await runCli(args, {
    env: parseEnv(env),
    stdout: (text) => void (result.stdout += text),
    stderr: (text) => void (result.stderr += text),
    openServices: (e) => openServices(e, createLogger("silent")),
  });
  return result;
}

/**
 * `operatorCli`'s output, or its error when it fails. A benchmark's command runs in a process
 * of its own at the lowest CPU priority instead: it is not what the benchmark measures.
 */
export async function registrationsCli(
  env: Record<string, string>,
  args: string[],
  options: { lowPriority?: boolean } = {},
): Promise<string> {
  if (options.lowPriority) {
    const command = [process.execPath, "server/cli/registrations.ts", ...args];
    const { stdout } = await promisify(execFile)("nice", ["-n", "19", ...command], {
      cwd: path.resolve(import.meta.dirname, "..", ".."),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        LOG_LEVEL: "silent",
        ...env,
      },
      encoding: "utf8",
    });
    return stdout;
  }
  const { status, stdout, stderr } = await operatorCli(env, args);
  if (status !== 0) throw new Error(`registrations ${args.join(" ")} exited ${status}:\n${stderr}`);
  return stdout;
}

/**
 * What a manager's approval in the console leaves, for the delivery tests and benchmarks that
 * submit with `registrations -- announce` and run it again to queue (decision 136); the
 * approval itself is tested through the console in console-announce.spec.ts. Takes the
 * first run's output, which names the draft, and the server's data directory.
 */
export function approveSubmitted(cliOutput: string, dataDir: string): void {
  const id = /\/console\/announcements\/draft\?id=([\w-]+)/.exec(cliOutput)?.[1];
  if (!id) throw new Error(`announce did not submit a draft:\n${cliOutput}`);
  // Writable beside the server, which keeps the file in WAL, so both can write.
  const db = new DatabaseSync(path.join(dataDir, "registrations.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare(
      "UPDATE announcement_drafts SET state = 'approved', approved_at = ? WHERE id = ? AND state = 'submitted'",
    ).run(new Date().toISOString(), id);
  } finally {
    db.close();
  }
}

/** An address no other test or run uses; `label` says which test made it. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${randomUUID().slice(0, 8)}@example.co.uk`;
}

/** A valid registration with a unique address and idempotency key. */
export function newRegistration(
  label = "person",
  overrides: Partial<NewRegistration> = {},
): NewRegistration {
  counter += 1;
  return {
    name: `Test Person ${counter}`,
    email: uniqueEmail(label),
    phone: "07700 900123",
    message: `Please keep me posted (${label} ${counter}).`,
    clientTimestamp: null,
    idempotencyKey: randomUUID(),
    consent: { version: "2026-11-23", wantsUpdates: false },
    ...overrides,
  };
}

/** The fields the form posts for it (the page's hidden fields left to the server's defaults). */
export function formFields(registration: NewRegistration): Record<string, string> {
  return {
    name: registration.name,
    email: registration.email,
    phone: registration.phone ?? "",
    message: registration.message ?? "",
    idempotencyKey: registration.idempotencyKey,
  };
}

export function formBody(registration: NewRegistration): string {
  return new URLSearchParams(formFields(registration)).toString();
}

export type PostResult = { status: number; body: string; headers: Headers };

/**
 * The form posted without JavaScript (answered with HTML), and the island's POST of it to
 * the same action asking for JSON (decision 149).
 */
export const registrationModes = { noJs: "noJs", js: "js" } as const;

/**
 * POSTs the form as a browser would (same-origin, urlencoded): without JavaScript by
 * default, or as the island's fetch with `mode: registrationModes.js`.
 */
export async function postRegistration(
  baseUrl: string,
  registration: NewRegistration,
  init: {
    headers?: Record<string, string>;
    dispatcher?: unknown;
    signal?: AbortSignal;
    mode?: string;
  } = {},
): Promise<PostResult> {
  const response = await fetch(`${baseUrl}/register-interest`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      ...(init.mode === registrationModes.js ? { accept: "application/json" } : {}),
      ...init.headers,
    },
    body: formBody(registration),
    signal: init.signal,
    ...(init.dispatcher ? { dispatcher: init.dispatcher } : {}),
  } as RequestInit);
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** Runs `task` over `items` with at most `concurrency` in flight. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      await task(items[index] as T, index);
    }
  });
  await Promise.all(workers);
}

export type RegistrationRow = Selectable<RegistrationsTable>;
export type StoredRow = Pick<
  RegistrationRow,
  "id" | "name" | "email" | "phone" | "message" | "idempotency_key"
>;

/**
 * What the server acknowledged (2xx) and what it refused, by email address;
 * `check` compares that with the stored rows.
 */
export class Ledger {
  readonly acknowledged = new Set<string>();
  readonly refused: Record<number, number> = {};
  readonly failures: string[] = [];

  record(email: string, result: PostResult | Error) {
    if (result instanceof Error) {
      this.failures.push(result.message);
      return;
    }
    if (result.status >= 200 && result.status < 300) this.acknowledged.add(email);
    else this.refused[result.status] = (this.refused[result.status] ?? 0) + 1;
  }

  /** Every acknowledged address stored exactly once. */
  check(rows: StoredRow[]): { missing: string[]; duplicated: string[] } {
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.email, (counts.get(row.email) ?? 0) + 1);
    const missing = [...this.acknowledged].filter((email) => !counts.has(email));
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([email]) => email);
    return { missing, duplicated };
  }
}

/**
 * The server's SQLite file, read-only: by default that of the suite's server, whose data
 * directory playwright.config.ts shares through E2E_DATA_DIR.
 */
export function openRegistrations(dataDir = process.env.E2E_DATA_DIR): DatabaseSync {
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the specs through playwright");
  return new DatabaseSync(path.join(dataDir, "registrations.sqlite"), { readOnly: true });
}

function readRegistrations<T>(dataDir: string | undefined, read: (db: DatabaseSync) => T): T {
  const db = openRegistrations(dataDir);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const storedColumns = "id, name, email, phone, message, idempotency_key";

export function sqliteRows(dataDir: string): StoredRow[] {
  return readRegistrations(
    dataDir,
    (db) => db.prepare(`SELECT ${storedColumns} FROM registrations`).all() as StoredRow[],
  );
}

export async function postgresRows(databaseUrl: string): Promise<StoredRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<StoredRow>(`SELECT ${storedColumns} FROM registrations`)).rows;
  } finally {
    await client.end();
  }
}

export function registrationsFor(email: string, dataDir?: string): RegistrationRow[] {
  return readRegistrations(
    dataDir,
    (db) =>
      db
        .prepare("SELECT * FROM registrations WHERE email = ? ORDER BY received_at")
        .all(email) as RegistrationRow[],
  );
}

/** How many rows each idempotency key has, over the whole table. */
export function rowsPerKey(dataDir?: string): Map<string, { count: number; email: string }> {
  const rows = readRegistrations(
    dataDir,
    (db) =>
      db
        .prepare(
          "SELECT idempotency_key AS key, COUNT(*) AS count, MIN(email) AS email FROM registrations GROUP BY idempotency_key",
        )
        .all() as { key: string; count: number; email: string }[],
  );
  return new Map(rows.map((r) => [r.key, { count: Number(r.count), email: r.email }]));
}
