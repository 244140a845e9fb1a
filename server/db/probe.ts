import { type Kysely, sql } from "kysely";

import type { Database, Dialect } from "./schema.ts";

/**
 * The smallest write that proves storage takes writes, without a table of its own.
 * SQLite: rewrite the header's user_version with its own value, which commits one
 * page to the WAL (so a full disk, a read-only file or a held lock fails it).
 * PostgreSQL: take a transaction id, which a standby or an unreachable server refuses
 * and whose commit is written to the server's WAL.
 */
export async function probeWrite(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`select txid_current()`.execute(db);
    return;
  }
  await db.connection().execute(async (conn) => {
    const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(conn);
    const version = Math.trunc(Number(rows[0]?.user_version ?? 0));
    await sql.raw(`pragma user_version = ${version}`).execute(conn);
  });
}
