import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("registration_id", "text", (c) =>
      c.notNull().references("registrations.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'delivered', 'dead')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  // The worker's query: due rows by status and time.
  await db.schema
    .createIndex("outbox_due_idx")
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
  // PostgreSQL does not index foreign keys itself; erasure and purge cascade through this.
  await db.schema
    .createIndex("outbox_registration_id_idx")
    .on("outbox")
    .column("registration_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("outbox").execute();
}
