import type { Kysely } from "kysely";

const columns = ["utm_source", "utm_medium", "utm_campaign", "referrer_host"] as const;

/**
 * Where a registration came from (docs/decisions/134), kept only when the visitor allowed
 * analytics: the landing visit's utm_source, utm_medium and utm_campaign and the referring
 * site's host name. `source_recorded` is 1 when they were allowed, so "came straight to the
 * site" (recorded, all empty) differs from "not recorded" (no consent, or no JavaScript).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of columns) {
    await db.schema.alterTable("registrations").addColumn(column, "text").execute();
  }
  await db.schema
    .alterTable("registrations")
    .addColumn("source_recorded", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // The overview's outbox counts (per kind and status, with the oldest) read only this
  // index: without it, SQLite fetched every outbox row to find the oldest (decision 134).
  await db.schema
    .createIndex("outbox_status_kind_created_idx")
    .on("outbox")
    .columns(["status", "kind", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("outbox_status_kind_created_idx").execute();
  for (const column of [...columns, "source_recorded"]) {
    await db.schema.alterTable("registrations").dropColumn(column).execute();
  }
}
