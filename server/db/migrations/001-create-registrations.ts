import type { Kysely } from "kysely";

// Portable types only (text, integer) so one migration serves SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("registrations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("message", "text")
    .addColumn("client_timestamp", "text")
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createIndex("registrations_received_at_idx")
    .on("registrations")
    .column("received_at")
    .execute();
  await db.schema
    .createIndex("registrations_email_idx")
    .on("registrations")
    .column("email")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("registrations").execute();
}
