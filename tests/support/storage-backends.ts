import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

import { type Env, parseEnv } from "../../server/env.ts";

/** A fresh, empty database for one test, and how to throw it away. */
export type TestPlace = { env: Env; drop(): Promise<void> };

export type TestBackend = {
  name: "sqlite" | "postgres";
  enabled: boolean;
  fresh(extra?: Record<string, string>): Promise<TestPlace>;
};

export const sqliteBackend: TestBackend = {
  name: "sqlite",
  enabled: true,
  fresh(extra = {}) {
    const dir = mkdtempSync(path.join(tmpdir(), "registrations-test-"));
    return Promise.resolve({
      env: parseEnv({ DATA_DIR: dir, ...extra }),
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    });
  },
};

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

async function onPostgres(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Set by tests/support/postgres-schemas.ts for a Vitest run: the run's schemas share this
 * prefix and are dropped together after the last file. Dropping one while another test's
 * migrator reads the catalog failed that test ("schema ... does not exist"): Kysely's
 * getTables calls pg_get_serial_sequence by name on every schema it lists.
 */
const runPrefix = process.env.TEST_SCHEMA_RUN;

/**
 * A schema of its own in the PostgreSQL server at `databaseUrl`, reached through
 * search_path in the connection URL, so parallel tests and CI runs sharing one server
 * never collide.
 */
export async function freshPostgresSchema(
  databaseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${runPrefix ?? "test_"}${randomUUID().replaceAll("-", "")}`;
  await onPostgres(databaseUrl, `create schema ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: () =>
      runPrefix
        ? Promise.resolve()
        : onPostgres(databaseUrl, `drop schema if exists ${schema} cascade`),
  };
}

/** Drops every schema whose name starts with `prefix`. */
export async function dropPostgresSchemas(databaseUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where starts_with(nspname, $1)",
      [prefix],
    );
    for (const { name } of rows) await client.query(`drop schema if exists ${name} cascade`);
  } finally {
    await client.end();
  }
}

export const postgresBackend: TestBackend = {
  name: "postgres",
  enabled: Boolean(testDatabaseUrl),
  async fresh(extra = {}) {
    if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
    const schema = await freshPostgresSchema(testDatabaseUrl);
    return { env: parseEnv({ DATABASE_URL: schema.url, ...extra }), drop: schema.drop };
  },
};

export const backends = [sqliteBackend, postgresBackend];
