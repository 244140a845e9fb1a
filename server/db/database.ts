import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";

import {
  CompiledQuery,
  type Driver,
  Kysely,
  PostgresDialect,
  sql,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteStatement,
} from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";

import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import { migrations } from "./migrations.ts";
import type { Database, DatabaseHandle } from "./schema.ts";
import { guardAvailability } from "./writes.ts";

export const SQLITE_FILE_NAME = "registrations.sqlite";

export type DatabaseOptions = { busyTimeoutMs?: number };

/** A commit is durable (WAL, synchronous=FULL); erased content is zeroed (decision 079). */
export function openSqliteFile(file: string, options: { busyTimeoutMs: number }): DatabaseSync {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA secure_delete = ON");
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** node:sqlite binds only null, numbers, bigints, strings and bytes. */
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

function wrapStatement(statement: StatementSync): SqliteStatement {
  const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlite);
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

const alreadyRolledBack: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/** Statements are prepared once per SQL text; Kysely emits few distinct shapes. */
const STATEMENT_CACHE_SIZE = 200;

/** node:sqlite in the better-sqlite3 shape Kysely's SqliteDialect expects. */
export function adaptNodeSqlite(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      // After SQLITE_FULL or an I/O error SQLite may have rolled back itself; a failing ROLLBACK
      // would replace the real error and hide the full disk (decision 073).
      if (!db.isTransaction && /^\s*rollback\s*$/i.test(sql)) return alreadyRolledBack;
      const statement = cache.get(sql) ?? wrapStatement(db.prepare(sql));
      // Re-inserted, so that the least recently used goes first.
      cache.delete(sql);
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value ?? "");
      return statement;
    },
    close() {
      cache.clear();
      if (db.isOpen) db.close();
    },
  };
}

// Kysely's migrator only asks whether its own tables exist, but its listing reads every schema's
// columns and resolves each table by name, which fails while another user of the server (another
// app server migrating, a CI worker) renames one. A read of our schema's catalog rows cannot.
class SharedServerDialect extends PostgresDialect {
  override createIntrospector(db: Parameters<PostgresDialect["createIntrospector"]>[0]) {
    const introspector = super.createIntrospector(db);
    introspector.getTables = async () => {
      const { rows } = await sql<{ name: string; schema: string; kind: string }>`
        select c.relname as name, n.nspname as schema, c.relkind as kind
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')`.execute(db);
      return rows.map((r) => ({
        name: r.name,
        schema: r.schema,
        isView: r.kind === "v",
        isForeign: r.kind === "f",
        columns: [],
      }));
    };
    return introspector;
  }
}

export function createDatabase(
  env: Pick<Env, "DATABASE_URL" | "DATA_DIR">,
  logger: Logger,
  options: DatabaseOptions = {},
): DatabaseHandle {
  if (env.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: env.DATABASE_URL,
      max: 10,
      connectionTimeoutMillis: 5_000,
    });
    const warn = (message: string) => (error: Error) =>
      logger.warn(
        { err: { message: error.message, code: (error as { code?: string }).code } },
        message,
      );
    // A checked-out client's 'error' event would otherwise crash the process (faults.spec.ts).
    pool.on("connect", (client) => client.on("error", warn("postgres client error")));
    pool.on("error", warn("postgres idle client error"));
    return {
      db: new Kysely<Database>({ dialect: new SharedServerDialect({ pool }) }),
      dialect: "postgres",
    };
  }
  const file = path.resolve(env.DATA_DIR, SQLITE_FILE_NAME);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  const dialect = new ImmediateSqliteDialect({
    database: () => Promise.resolve(adaptNodeSqlite(openSqliteFile(file, { busyTimeoutMs }))),
  });
  return { db: new Kysely<Database>({ dialect }), dialect: "sqlite" };
}

/**
 * Every transaction begins IMMEDIATE: a deferred one that reads first is refused at once
 * (a stale snapshot) when another process (the CLI, a test's seeding) commits before it
 * writes, whatever the busy timeout. IMMEDIATE waits for the lock instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

/** To the latest migration, or (tests of upgrades) to `to`; concurrent starters wait their turn. */
export async function migrate(
  db: Kysely<Database>,
  dialect: DatabaseHandle["dialect"],
  to?: string,
): Promise<string[]> {
  // Else Kysely would take another schema's bookkeeping tables for ours.
  let schema: string | undefined;
  if (dialect === "postgres") {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema;
    if (!schema) throw new Error("PostgreSQL reports no current schema: check search_path");
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableSchema: schema,
  });
  const { error, results } = await (to ? migrator.migrateTo(to) : migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function openDatabase(
  env: Env,
  logger: Logger,
  options: DatabaseOptions = {},
): Promise<DatabaseHandle> {
  const { db, dialect } = createDatabase(env, logger, options);
  try {
    const applied = await guardAvailability(() => migrate(db, dialect));
    logger.info({ database: dialect, migrationsApplied: applied }, "storage ready");
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return { db, dialect };
}
