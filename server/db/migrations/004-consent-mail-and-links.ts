import { randomBytes } from "node:crypto";

import { type Kysely, sql } from "kysely";

/**
 * The registrant's journey (docs/decisions/087):
 * - each registration records the consent wording it was shown, when, and whether
 *   it asked for updates before launch, and later whether the address was confirmed
 *   (double opt-in) or unsubscribed;
 * - the outbox carries two kinds of work: deliveries to the spreadsheet ('sheet':
 *   the registration, then its later status) and email ('mail': the confirmation, an
 *   announcement). `dedupe_key` makes "once per address per announcement" a unique
 *   index rather than a hope;
 * - announcements keep what staff sent; the link key signs confirm and unsubscribe
 *   links, made here once at random so every app server sharing the database agrees.
 * Rows older than this migration keep a null consent_version: they were never sent a
 * confirmation, so the 30-day purge of unconfirmed registrations leaves them alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("registrations").addColumn("consent_version", "text").execute();
  await db.schema.alterTable("registrations").addColumn("consent_at", "text").execute();
  await db.schema
    .alterTable("registrations")
    .addColumn("wants_updates", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("registrations").addColumn("confirmed_at", "text").execute();
  await db.schema.alterTable("registrations").addColumn("unsubscribed_at", "text").execute();
  // No index for the daily purge of unconfirmed rows: it reads received_at's, and every
  // index is one more write per registration.

  await db.schema
    .alterTable("outbox")
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("sheet")
        .check(sql`kind in ('sheet', 'mail')`),
    )
    .execute();
  await db.schema
    .alterTable("outbox")
    .addColumn("topic", "text", (c) =>
      c
        .notNull()
        .defaultTo("registration")
        .check(sql`topic in ('registration', 'status', 'confirmation', 'announcement')`),
    )
    .execute();
  await db.schema.alterTable("outbox").addColumn("announcement_id", "text").execute();
  await db.schema.alterTable("outbox").addColumn("dedupe_key", "text").execute();
  // Partial: only announcements carry a key, so a registration's rows add no entry.
  await db.schema
    .createIndex("outbox_dedupe_key_idx")
    .on("outbox")
    .column("dedupe_key")
    .unique()
    .where(sql.ref("dedupe_key"), "is not", null)
    .execute();
  // Each worker claims its own kind; this replaces migration 002's (status, next_attempt_at).
  await db.schema
    .createIndex("outbox_kind_due_idx")
    .on("outbox")
    .columns(["kind", "status", "next_attempt_at"])
    .execute();
  await db.schema.dropIndex("outbox_due_idx").execute();

  await db.schema
    .createTable("announcements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("link_key")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("hmac_key", "text", (c) => c.notNull())
    .execute();
  await sql`insert into link_key (id, hmac_key) values (1, ${randomBytes(32).toString("hex")})`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("link_key").execute();
  await db.schema.dropTable("announcements").execute();
  await db.schema
    .createIndex("outbox_due_idx")
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema.dropIndex("outbox_kind_due_idx").execute();
  await db.schema.dropIndex("outbox_dedupe_key_idx").execute();
  for (const column of ["dedupe_key", "announcement_id", "topic", "kind"]) {
    await db.schema.alterTable("outbox").dropColumn(column).execute();
  }
  for (const column of [
    "unsubscribed_at",
    "confirmed_at",
    "wants_updates",
    "consent_at",
    "consent_version",
  ]) {
    await db.schema.alterTable("registrations").dropColumn(column).execute();
  }
}
