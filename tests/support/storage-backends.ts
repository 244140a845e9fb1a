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
 * A schema of its own in the PostgreSQL server at `databaseUrl`, reached through
 * search_path in the connection URL, so parallel tests and CI runs sharing one server
 * never collide.
 */
export async function freshPostgresSchema(
  databaseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `test_${randomUUID().replaceAll("-", "")}`;
  await onPostgres(databaseUrl, `create schema ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: () => onPostgres(databaseUrl, `drop schema if exists ${schema} cascade`),
  };
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
