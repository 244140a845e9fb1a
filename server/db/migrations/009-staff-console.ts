import type { Kysely } from "kysely";

/**
 * The staff console (docs/decisions/133): staff and their passkeys, one-time invites,
 * server-side sessions, WebAuthn challenges and the audit trail. Invites and sessions
 * keep only the SHA-256 of their token; a challenge is kept until its ceremony uses it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("staff")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Lower-cased; one row per person, kept (with removed_at) after removal.
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("removed_at", "text")
    .execute();
  await db.schema
    .createTable("staff_passkeys")
    .addColumn("credential_id", "text", (c) => c.primaryKey())
    .addColumn("staff_id", "text", (c) => c.notNull())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull())
    .addColumn("transports", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema
    .createIndex("staff_passkeys_staff_idx")
    .on("staff_passkeys")
    .column("staff_id")
    .execute();
  await db.schema
    .createTable("staff_invites")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createTable("staff_sessions")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("staff_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("staff_sessions_staff_idx")
    .on("staff_sessions")
    .column("staff_id")
    .execute();
  await db.schema
    .createTable("staff_challenges")
    .addColumn("challenge", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    // The invite's token hash (enrol) or the staff id (add a passkey); "" for sign-in.
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("audit_trail")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("staff_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("registration_id", "text")
    .addColumn("detail", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_trail_at_idx").on("audit_trail").column("at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "audit_trail",
    "staff_challenges",
    "staff_sessions",
    "staff_invites",
    "staff_passkeys",
    "staff",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
