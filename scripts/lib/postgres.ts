/**
 * Schemas of their own in a shared PostgreSQL server, for the tests and the benchmarks
 * (scripts/bench-load.ts, bench-console.ts) that run on PostgreSQL.
 */
import { randomUUID } from "node:crypto";

import pg from "pg";

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
 * prefix and are dropped together after the last file, so that no test meets a schema
 * vanishing under it (Kysely's own catalog listing failed on that; server/db/database.ts).
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
