import { randomBytes } from "node:crypto";

import { type Kysely, sql } from "kysely";

/**
 * What an erasure leaves behind (docs/decisions/079): a keyed hash of the address,
 * never the address, so that `show --email` can still say "erased on …", and the
 * ids of registrations that had reached the spreadsheet, whose rows staff must
 * delete there too. The key is made here, once, at random.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("erasures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email_hash", "text", (c) => c.notNull())
    .addColumn("erased_at", "text", (c) => c.notNull())
    .addColumn("registrations", "integer", (c) => c.notNull())
    // 1 when a copy had been (or may have been) sent to the spreadsheet.
    .addColumn("forwarded", "integer", (c) => c.notNull())
    // JSON array of those registrations' ids: the sheet's first column.
    .addColumn("forwarded_ids", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("erasures_email_hash_idx")
    .on("erasures")
    .column("email_hash")
    .execute();
  await db.schema
    .createTable("erasure_key")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("hmac_key", "text", (c) => c.notNull())
    .execute();
  await sql`insert into erasure_key (id, hmac_key) values (1, ${randomBytes(32).toString("hex")})`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("erasure_key").execute();
  await db.schema.dropTable("erasures").execute();
}
