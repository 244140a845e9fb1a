import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type StatementSync, type SQLInputValue } from "node:sqlite";

import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Statements are prepared once per SQL text; Kysely emits few distinct shapes. */
const STATEMENT_CACHE_SIZE = 200;

export type SqliteFileOptions = {
  /** How long a writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs: number;
};

/**
 * Opens (creating if needed) the database file with the settings that make a
 * committed write durable: WAL with synchronous=FULL fsyncs the log on commit;
 * and erased data gone from the file: secure_delete.
 */
export function openSqliteFile(file: string, options: SqliteFileOptions): DatabaseSync {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA foreign_keys = ON");
    // Deleted content is overwritten with zeros, not left in free pages (erasure,
    // docs/decisions/079).
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

function bind(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map(toSqlite);
}

function wrapStatement(statement: StatementSync): SqliteStatement {
  return {
    // A statement that yields columns returns rows (SELECT, or anything with RETURNING).
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

/**
 * Adapts node:sqlite's DatabaseSync to the better-sqlite3-shaped interface that
 * Kysely's SqliteDialect expects. Kysely serialises access to the connection,
 * which matches SQLite's single writer.
 */
export function adaptNodeSqlite(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement) {
        // Refresh its place so the least recently used entry is evicted first.
        cache.delete(sql);
      } else {
        statement = wrapStatement(db.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      if (db.isOpen) db.close();
    },
  };
}
