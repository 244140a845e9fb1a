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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...columns, "source_recorded"]) {
    await db.schema.alterTable("registrations").dropColumn(column).execute();
  }
}
