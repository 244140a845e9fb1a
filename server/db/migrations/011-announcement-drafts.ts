import type { Kysely } from "kysely";

/**
 * Announcement drafts with four eyes (docs/decisions/136): what staff wrote, for whom,
 * where it stands (draft, submitted, approved, sending, sent, withdrawn), who approved it
 * and when, and who acknowledged the prescription-only medicine warning. `announcement_id`
 * is the hash of subject and text the outbox's dedupe keys carry (decision 156).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("announcement_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("announcement_id", "text", (c) => c.notNull())
    // Null: submitted with `registrations -- announce` from the command line.
    .addColumn("author_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("warning_acknowledged_by", "text")
    .addColumn("warning_acknowledged_at", "text")
    .addColumn("submitted_at", "text")
    .addColumn("approved_by", "text")
    .addColumn("approved_at", "text")
    .addColumn("sent_by", "text")
    .addColumn("send_started_at", "text")
    // Set once every email is queued: until then a send is not finished, even with none waiting.
    .addColumn("queued_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("withdrawn_at", "text")
    .execute();
  await db.schema
    .createIndex("announcement_drafts_announcement_idx")
    .on("announcement_drafts")
    .column("announcement_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("announcement_drafts").execute();
}
