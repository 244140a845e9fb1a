import type { Kysely } from "kysely";

/**
 * Every look-up by address compares `lower(email)` (subject access, unsubscribe, the mail
 * handoff gate, and now the per-address limits each registration checks,
 * docs/decisions/102). Migration 005 indexed that expression; the index on the plain
 * column serves no query any more, so it goes, and a registration still costs one index
 * write for its address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("registrations_email_idx").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("registrations_email_idx")
    .on("registrations")
    .column("email")
    .execute();
}
