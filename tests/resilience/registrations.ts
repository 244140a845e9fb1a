import { randomUUID } from "node:crypto";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import pg from "pg";

/**
 * The client side of the resilience tests: registrations posted as the form does
 * without JavaScript, and a ledger of what the server acknowledged, checked
 * against what the database holds.
 */

export type Registration = {
  name: string;
  email: string;
  phone: string;
  message: string;
  idempotencyKey: string;
};

/** A valid registration with a unique address; `label` keeps runs apart. */
export function newRegistration(label: string, index: number): Registration {
  return {
    name: `Test Person ${index}`,
    email: `${label}-${index}-${randomUUID().slice(0, 8)}@example.co.uk`,
    phone: "07700 900123",
    message: `Please keep me posted (${label} ${index}).`,
    idempotencyKey: randomUUID(),
  };
}

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export type PostResult = { status: number; body: string; headers: Headers };

/**
 * The form posted without JavaScript (answered with HTML), and the island's POST of it to
 * the same action asking for JSON (docs/decisions/149).
 */
export const registrationModes = { noJs: "noJs", js: "js" } as const;

/**
 * POSTs the form as a browser would (same-origin, urlencoded): without JavaScript by
 * default, or as the island's fetch with `mode: registrationModes.js`.
 */
export async function postRegistration(
  baseUrl: string,
  registration: Registration,
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

export type StoredRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  idempotency_key: string;
};

/** Reads every stored registration from the server's SQLite file (read-only). */
export function sqliteRows(dataDir: string): StoredRow[] {
  const db = new DatabaseSync(path.join(dataDir, "registrations.sqlite"), { readOnly: true });
  try {
    return db
      .prepare("SELECT id, name, email, phone, message, idempotency_key FROM registrations")
      .all() as StoredRow[];
  } finally {
    db.close();
  }
}

export async function postgresRows(databaseUrl: string): Promise<StoredRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<StoredRow>(
      "SELECT id, name, email, phone, message, idempotency_key FROM registrations",
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

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

  /** Every acknowledged address stored exactly once; returns the problems found. */
  check(rows: StoredRow[]): { missing: string[]; duplicated: string[] } {
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.email, (counts.get(row.email) ?? 0) + 1);
    const missing = [...this.acknowledged].filter((email) => !counts.has(email));
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([email]) => email);
    return { missing, duplicated };
  }
}

/** Test-only: a fresh schema in TEST_DATABASE_URL, reached through search_path. */
export async function freshPostgresSchema(
  testDatabaseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `resilience_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDatabaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
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
