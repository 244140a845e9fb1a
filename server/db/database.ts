import path from "node:path";

import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";

import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import type { Database, Dialect } from "./schema.ts";
import { adaptNodeSqlite, openSqliteFile } from "./sqlite-dialect.ts";

export const SQLITE_FILE_NAME = "registrations.sqlite";

export type DatabaseOptions = {
  /** SQLite: how long to wait for another process's write lock. */
  busyTimeoutMs?: number;
  /** PostgreSQL: connections per app server. */
  poolSize?: number;
  /** PostgreSQL: how long to wait for a connection before failing. */
  connectTimeoutMs?: number;
};

export type DatabaseHandle = {
  db: Kysely<Database>;
  dialect: Dialect;
};

/** One Kysely instance per process, over SQLite in DATA_DIR or PostgreSQL at DATABASE_URL. */
export function createDatabase(
  env: Pick<Env, "DATABASE_URL" | "DATA_DIR">,
  logger: Logger,
  options: DatabaseOptions = {},
): DatabaseHandle {
  if (env.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: env.DATABASE_URL,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    });
    // A checked-out client has no listener of the pool's: if its server goes away
    // between queries, its 'error' event would crash the process (found by
    // tests/e2e/faults.spec.ts). The query in progress, if any, still rejects.
    pool.on("connect", (client) => {
      client.on("error", (error) => {
        logger.warn(
          { err: { message: error.message, code: (error as { code?: string }).code } },
          "postgres client error",
        );
      });
    });
    // An idle client losing its server must not crash the process; the pool replaces it.
    pool.on("error", (error) => {
      logger.warn(
        { err: { message: error.message, code: (error as { code?: string }).code } },
        "postgres idle client error",
      );
    });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: "postgres",
    };
  }
  const file = path.resolve(env.DATA_DIR, SQLITE_FILE_NAME);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  const dialect = new SqliteDialect({
    database: () => Promise.resolve(adaptNodeSqlite(openSqliteFile(file, { busyTimeoutMs }))),
  });
  return { db: new Kysely<Database>({ dialect }), dialect: "sqlite" };
}
