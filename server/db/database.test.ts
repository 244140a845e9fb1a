import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import { Kysely, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";

import { freshPostgresSchema } from "../../scripts/lib/postgres.ts";
import { parseEnv } from "../env.ts";
import { createLogger } from "../logger.ts";
import { adaptNodeSqlite, createDatabase, migrate, openSqliteFile } from "./database.ts";

type Small = Kysely<{ t: { v: string } }>;

describe("adaptNodeSqlite", () => {
  it.each<[string, (trx: Small) => Promise<void>, object]>([
    [
      "lets a full database's own error through a transaction SQLite already rolled back",
      async (trx) => {
        const big = { v: "x".repeat(2000) };
        for (let i = 0; i < 50; i++) await trx.insertInto("t").values(big).execute();
      },
      { errcode: 13, message: expect.stringMatching(/full/) },
    ],
    [
      "still rolls back a transaction SQLite left open",
      async (trx) => {
        await trx.insertInto("t").values({ v: "kept?" }).execute();
        throw new Error("a bug");
      },
      { message: "a bug" },
    ],
  ])("%s", async (_title, work, expected) => {
    const dir = mkdtempSync(path.join(tmpdir(), "clinic-sqlite-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = openSqliteFile(path.join(dir, "x.sqlite"), { busyTimeoutMs: 100 });
    file.exec("CREATE TABLE t (v TEXT)");
    // SQLite answers SQLITE_FULL past this many pages, as it does on a full disk.
    file.exec("PRAGMA max_page_count = 8");
    const db: Small = new Kysely({
      dialect: new SqliteDialect({ database: adaptNodeSqlite(file) }),
    });

    const error = await db
      .transaction()
      .execute(work)
      .catch((e: unknown) => e);
    expect(error).toMatchObject(expected);
    expect(file.isTransaction).toBe(false);
    // The connection is still usable, and nothing of the failed transaction stayed.
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows[0]?.n).toBe(0);
    await db.destroy();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("migrate on a PostgreSQL server others use", () => {
  // Our own migration 008 renames and drops columns, and other app servers or test workers run
  // them while this one looks.
  it("is not failed by another schema's table or column being renamed while it looks", async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL!;
    const other = await freshPostgresSchema(databaseUrl);
    const side = new pg.Client({ connectionString: other.url });
    await side.connect();
    await side.query("create table busy (id serial primary key)");
    let renaming = true;
    const renames = (async () => {
      for (let away = false; renaming; away = !away) {
        const [table, next] = away ? ["busy_away", "busy"] : ["busy", "busy_away"];
        const [column, nextColumn] = away ? ["ident", "id"] : ["id", "ident"];
        await side.query(`alter table ${table} rename to ${next}`);
        await side.query(`alter table ${next} rename column ${column} to ${nextColumn}`);
        await delay(20);
      }
    })();
    try {
      // Each migration lists every table of every schema about twenty times.
      for (let i = 0; i < 3; i++) {
        const mine = await freshPostgresSchema(databaseUrl);
        const { db, dialect } = createDatabase(
          parseEnv({ DATABASE_URL: mine.url }),
          createLogger("silent"),
        );
        try {
          expect((await migrate(db, dialect)).length).toBeGreaterThan(0);
        } finally {
          await db.destroy();
          await mine.drop();
        }
      }
    } finally {
      renaming = false;
      await renames;
      await side.end();
      await other.drop();
    }
  });
});
