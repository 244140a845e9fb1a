import { type Kysely, sql } from "kysely";

/**
 * Mail you can trust (docs/decisions/095):
 * - `outbox.sending_until` is set when the mail worker hands a message to the transport
 *   (the handoff gate, server/outbox/store.ts) and cleared when its answer is recorded:
 *   the send is aborted by then, so an erasure or unsubscribe that finds the row in
 *   flight knows how long it may have to wait, and `outbox --retry` leaves it alone;
 * - `mail_suppressions` holds the addresses a mail server refused for good (5xx at RCPT
 *   or DATA), as the keyed hash erasures use, never the address, with the reply's code;
 * - an index on lower(email): the gate and unsubscribe look an address up in any case.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("outbox").addColumn("sending_until", "text").execute();
  await db.schema
    .createTable("mail_suppressions")
    .addColumn("email_hash", "text", (c) => c.primaryKey())
    .addColumn("reply", "text", (c) => c.notNull())
    .addColumn("suppressed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("registrations_email_lower_idx")
    .on("registrations")
    .expression(sql`lower(email)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("registrations_email_lower_idx").execute();
  await db.schema.dropTable("mail_suppressions").execute();
  await db.schema.alterTable("outbox").dropColumn("sending_until").execute();
}
