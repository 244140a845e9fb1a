import { type Kysely, sql } from "kysely";

const before = { kind: "sheet", sent: "forwarded", ids: "forwarded_ids" };
const after = { kind: "spreadsheet", sent: "sent_to_spreadsheet", ids: "spreadsheet_ids" };

/**
 * One name for the spreadsheet channel (issue 30): its outbox rows change kind from
 * 'sheet' to 'spreadsheet', and the erasures' columns say spreadsheet. SQLite cannot
 * alter a CHECK, so on both databases the kind column is made again: renamed aside,
 * added with the new rule, filled, and the old one dropped.
 */
async function rename(db: Kysely<unknown>, from: typeof before, to: typeof before) {
  await db.schema.dropIndex("outbox_kind_due_idx").execute();
  await db.schema.alterTable("outbox").renameColumn("kind", "kind_before").execute();
  await db.schema
    .alterTable("outbox")
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo(to.kind)
        .check(sql`kind in (${sql.lit(to.kind)}, 'mail')`),
    )
    .execute();
  await sql`update outbox set kind = 'mail' where kind_before = 'mail'`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("kind_before").execute();
  await db.schema
    .createIndex("outbox_kind_due_idx")
    .on("outbox")
    .columns(["kind", "status", "next_attempt_at"])
    .execute();
  await db.schema.alterTable("erasures").renameColumn(from.sent, to.sent).execute();
  await db.schema.alterTable("erasures").renameColumn(from.ids, to.ids).execute();
}

export const up = (db: Kysely<unknown>) => rename(db, before, after);
export const down = (db: Kysely<unknown>) => rename(db, after, before);
