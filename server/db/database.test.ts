import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";

import { adaptNodeSqlite, openSqliteFile } from "./database.ts";
import { isUnavailableError } from "./writes.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function smallDatabase() {
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-sqlite-"));
  dirs.push(dir);
  const file = openSqliteFile(path.join(dir, "x.sqlite"), { busyTimeoutMs: 100 });
  file.exec("CREATE TABLE t (v TEXT)");
  // SQLite answers SQLITE_FULL past this many pages, as it does on a full disk.
  file.exec("PRAGMA max_page_count = 8");
  const db = new Kysely<{ t: { v: string } }>({
    dialect: new SqliteDialect({ database: adaptNodeSqlite(file) }),
  });
  return { db, file };
}

describe("adaptNodeSqlite", () => {
  it("lets a full database's own error through a transaction SQLite already rolled back", async () => {
    const { db, file } = smallDatabase();
    const error = await db
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 50; i++) {
          await trx
            .insertInto("t")
            .values({ v: "x".repeat(2000) })
            .execute();
        }
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ errcode: 13, message: expect.stringMatching(/full/) });
    expect(isUnavailableError(error)).toBe(true);
    expect(file.isTransaction).toBe(false);

    // The connection is still usable, and nothing of the failed transaction stayed.
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows[0]?.n).toBe(0);
    await db.destroy();
  });

  it("still rolls back a transaction SQLite left open", async () => {
    const { db } = smallDatabase();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ v: "kept?" }).execute();
        throw new Error("a bug");
      }),
    ).rejects.toThrow("a bug");
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows[0]?.n).toBe(0);
    await db.destroy();
  });
});
