import { randomBytes } from "node:crypto";

import { type Kysely, PostgresAdapter, sql } from "kysely";
import type { Migration } from "kysely/migration";

/*
 * Every migration, in order, by the name the database records. Written once and never
 * changed: what one does to a database stays as it was when it first ran. Portable types
 * only (text, integer) so one migration serves SQLite and PostgreSQL.
 */

const createIndex = (db: Kysely<unknown>, name: string, table: string, columns: string[]) =>
  db.schema.createIndex(name).on(table).columns(columns).execute();

/** A table of one row holding a key made here once, at random, that the database keeps. */
async function createKeyTable(db: Kysely<unknown>, table: "erasure_key" | "link_key") {
  await db.schema
    .createTable(table)
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("hmac_key", "text", (c) => c.notNull())
    .execute();
  await sql`insert into ${sql.raw(table)} (id, hmac_key) values (1, ${randomBytes(32).toString("hex")})`.execute(
    db,
  );
}

const sheet = { kind: "sheet", sent: "forwarded", ids: "forwarded_ids" };
const spreadsheet = { kind: "spreadsheet", sent: "sent_to_spreadsheet", ids: "spreadsheet_ids" };

/** 008 both ways. SQLite cannot alter a CHECK, so the kind column is made again. */
async function renameSpreadsheetKind(db: Kysely<unknown>, from: typeof sheet, to: typeof sheet) {
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
  await createIndex(db, "outbox_kind_due_idx", "outbox", ["kind", "status", "next_attempt_at"]);
  await db.schema.alterTable("erasures").renameColumn(from.sent, to.sent).execute();
  await db.schema.alterTable("erasures").renameColumn(from.ids, to.ids).execute();
}

const attribution = ["utm_source", "utm_medium", "utm_campaign", "referrer_host"];

export const migrations: Record<string, Migration> = {
  "001-create-registrations": {
    async up(db) {
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
      await createIndex(db, "registrations_received_at_idx", "registrations", ["received_at"]);
      await createIndex(db, "registrations_email_idx", "registrations", ["email"]);
    },
    async down(db) {
      await db.schema.dropTable("registrations").execute();
    },
  },

  "002-create-outbox": {
    async up(db) {
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
      await createIndex(db, "outbox_due_idx", "outbox", ["status", "next_attempt_at"]);
      // PostgreSQL does not index foreign keys itself; erasure and purge cascade through this.
      await createIndex(db, "outbox_registration_id_idx", "outbox", ["registration_id"]);
    },
    async down(db) {
      await db.schema.dropTable("outbox").execute();
    },
  },

  /**
   * What an erasure leaves behind (docs/decisions/079): a keyed hash of the address, never
   * the address, so that `show --email` can still say "erased on …", and the ids of
   * registrations that had reached the spreadsheet, whose rows staff must delete there too.
   */
  "003-create-erasures": {
    async up(db) {
      await db.schema
        .createTable("erasures")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("email_hash", "text", (c) => c.notNull())
        .addColumn("erased_at", "text", (c) => c.notNull())
        .addColumn("registrations", "integer", (c) => c.notNull())
        // 1 when a copy had been (or may have been) sent to the spreadsheet.
        .addColumn("forwarded", "integer", (c) => c.notNull())
        // JSON array of those registrations' ids: the sheet's first column.
        .addColumn("forwarded_ids", "text", (c) => c.notNull())
        .execute();
      await createIndex(db, "erasures_email_hash_idx", "erasures", ["email_hash"]);
      await createKeyTable(db, "erasure_key");
    },
    async down(db) {
      await db.schema.dropTable("erasure_key").execute();
      await db.schema.dropTable("erasures").execute();
    },
  },

  /**
   * The registrant's journey (docs/decisions/087):
   * - each registration records the consent wording it was shown, when, and whether it
   *   asked for updates before launch, and later whether the address was confirmed
   *   (double opt-in) or unsubscribed;
   * - the outbox carries two kinds of work: deliveries to the spreadsheet ('sheet': the
   *   registration, then its later status) and email ('mail': the confirmation, an
   *   announcement). `dedupe_key` makes "once per address per announcement" a unique
   *   index rather than a hope;
   * - announcements keep what staff sent; the link key signs confirm and unsubscribe
   *   links, made here once so every app server sharing the database agrees.
   * Rows older than this migration keep a null consent_version: they were never sent a
   * confirmation, so the 30-day purge of unconfirmed registrations leaves them alone.
   */
  "004-consent-mail-and-links": {
    async up(db) {
      const registrations = db.schema.alterTable("registrations");
      await registrations.addColumn("consent_version", "text").execute();
      await registrations.addColumn("consent_at", "text").execute();
      await registrations
        .addColumn("wants_updates", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await registrations.addColumn("confirmed_at", "text").execute();
      await registrations.addColumn("unsubscribed_at", "text").execute();
      // No index for the daily purge of unconfirmed rows: it reads received_at's, and every
      // index is one more write per registration.

      const outbox = db.schema.alterTable("outbox");
      await outbox
        .addColumn("kind", "text", (c) =>
          c
            .notNull()
            .defaultTo("sheet")
            .check(sql`kind in ('sheet', 'mail')`),
        )
        .execute();
      await outbox
        .addColumn("topic", "text", (c) =>
          c
            .notNull()
            .defaultTo("registration")
            .check(sql`topic in ('registration', 'status', 'confirmation', 'announcement')`),
        )
        .execute();
      await outbox.addColumn("announcement_id", "text").execute();
      await outbox.addColumn("dedupe_key", "text").execute();
      // Partial: only announcements carry a key, so a registration's rows add no entry.
      await db.schema
        .createIndex("outbox_dedupe_key_idx")
        .on("outbox")
        .column("dedupe_key")
        .unique()
        .where(sql.ref("dedupe_key"), "is not", null)
        .execute();
      // Each worker claims its own kind; this replaces migration 002's (status, next_attempt_at).
      await createIndex(db, "outbox_kind_due_idx", "outbox", ["kind", "status", "next_attempt_at"]);
      await db.schema.dropIndex("outbox_due_idx").execute();

      await db.schema
        .createTable("announcements")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await createKeyTable(db, "link_key");
    },
    async down(db) {
      await db.schema.dropTable("link_key").execute();
      await db.schema.dropTable("announcements").execute();
      await createIndex(db, "outbox_due_idx", "outbox", ["status", "next_attempt_at"]);
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
    },
  },

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
  "005-mail-handoff-and-suppressions": {
    async up(db) {
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
    },
    async down(db) {
      await db.schema.dropIndex("registrations_email_lower_idx").execute();
      await db.schema.dropTable("mail_suppressions").execute();
      await db.schema.alterTable("outbox").dropColumn("sending_until").execute();
    },
  },

  /**
   * Every look-up by address compares `lower(email)` (subject access, unsubscribe, the mail
   * handoff gate, and the per-address limits each registration checks, decision 102), which
   * 005 indexed: the index on the plain column serves no query any more.
   */
  "006-address-index": {
    async up(db) {
      await db.schema.dropIndex("registrations_email_idx").execute();
    },
    async down(db) {
      await createIndex(db, "registrations_email_idx", "registrations", ["email"]);
    },
  },

  /**
   * PostgreSQL only (docs/decisions/129): `registration_address_seen(address, own_id)`,
   * which the INSERT of new registrations calls for each row it stores. It takes the
   * address's transaction lock, then says whether any other registration of the address
   * is stored. A PL/pgSQL function reads in a snapshot taken after the lock is granted, so
   * a registration committed by whoever held the lock before is seen; one query inside a
   * statement could not do that (its snapshot is taken when the statement starts). The
   * function's query is planned once per connection. SQLite writes one transaction at a
   * time and needs no lock, so it gets nothing here.
   */
  "007-address-lock": {
    async up(db) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      // Indented as first run: PostgreSQL keeps the function's text as written.
      await sql`
    create function registration_address_seen(address text, own_id text) returns boolean
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended(address, 102));
      return exists (select from registrations where lower(email) = address and id <> own_id);
    end
    $$`.execute(db);
    },
    async down(db) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
      await sql`drop function registration_address_seen(text, text)`.execute(db);
    },
  },

  /**
   * One name for the spreadsheet channel (issue 30): its outbox rows change kind from
   * 'sheet' to 'spreadsheet', and the erasures' columns say spreadsheet.
   */
  "008-spreadsheet-kind": {
    up: (db) => renameSpreadsheetKind(db, sheet, spreadsheet),
    down: (db) => renameSpreadsheetKind(db, spreadsheet, sheet),
  },

  /**
   * The staff console (docs/decisions/133): staff and their passkeys, one-time invites,
   * server-side sessions, WebAuthn challenges and the audit trail. Invites and sessions
   * keep only the SHA-256 of their token; a challenge is kept until its ceremony uses it.
   */
  "009-staff-console": {
    async up(db) {
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
      await createIndex(db, "staff_passkeys_staff_idx", "staff_passkeys", ["staff_id"]);
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
      await createIndex(db, "staff_sessions_staff_idx", "staff_sessions", ["staff_id"]);
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
      await createIndex(db, "audit_trail_at_idx", "audit_trail", ["at"]);
    },
    async down(db) {
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
    },
  },

  /**
   * Where a registration came from (docs/decisions/134), kept only when the visitor allowed
   * analytics: the landing visit's utm_source, utm_medium and utm_campaign and the referring
   * site's host name. `source_recorded` is 1 when they were allowed, so "came straight to the
   * site" (recorded, all empty) differs from "not recorded" (no consent, or no JavaScript).
   */
  "010-attribution": {
    async up(db) {
      for (const column of attribution) {
        await db.schema.alterTable("registrations").addColumn(column, "text").execute();
      }
      await db.schema
        .alterTable("registrations")
        .addColumn("source_recorded", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      // The overview's outbox counts (per kind and status, with the oldest) read only this
      // index: without it, SQLite fetched every outbox row to find the oldest (decision 134).
      await createIndex(db, "outbox_status_kind_created_idx", "outbox", [
        "status",
        "kind",
        "created_at",
      ]);
    },
    async down(db) {
      await db.schema.dropIndex("outbox_status_kind_created_idx").execute();
      for (const column of [...attribution, "source_recorded"]) {
        await db.schema.alterTable("registrations").dropColumn(column).execute();
      }
    },
  },

  /**
   * Announcement drafts with four eyes (docs/decisions/136): what staff wrote, for whom,
   * where it stands (draft, submitted, approved, sending, sent, withdrawn), who approved it
   * and when, and who acknowledged the prescription-only medicine warning. `announcement_id`
   * is the hash of subject and text the outbox's dedupe keys carry (decision 156).
   */
  "011-announcement-drafts": {
    async up(db) {
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
      await createIndex(db, "announcement_drafts_announcement_idx", "announcement_drafts", [
        "announcement_id",
      ]);
    },
    async down(db) {
      await db.schema.dropTable("announcement_drafts").execute();
    },
  },

  /**
   * Staff changes with a second manager's agreement (docs/decisions/175): who alone granted
   * each manager role (`manager_by`, on staff and on the invite that will grant it), who
   * made an invite and whether it resets someone, and the changes waiting for agreement.
   */
  "012-staff-consent": {
    async up(db) {
      await db.schema.alterTable("staff").addColumn("manager_by", "text").execute();
      await db.schema.alterTable("staff_invites").addColumn("manager_by", "text").execute();
      await db.schema.alterTable("staff_invites").addColumn("invited_by", "text").execute();
      await db.schema
        .alterTable("staff_invites")
        .addColumn("reset", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("staff_requests")
        .addColumn("id", "text", (c) => c.primaryKey())
        // invite, role, remove or reset
        .addColumn("change", "text", (c) => c.notNull())
        // Null for an invitation: nobody has that address yet.
        .addColumn("staff_id", "text")
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("role", "text")
        .addColumn("requested_by", "text", (c) => c.notNull())
        .addColumn("requested_at", "text", (c) => c.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable("staff_requests").execute();
      for (const column of ["reset", "invited_by", "manager_by"]) {
        await db.schema.alterTable("staff_invites").dropColumn(column).execute();
      }
      await db.schema.alterTable("staff").dropColumn("manager_by").execute();
    },
  },

  /**
   * When a session last confirmed its person with a passkey (docs/decisions/178): adding or
   * removing a passkey, or ending sessions, needs one within the last few minutes.
   */
  "013-staff-sessions": {
    async up(db) {
      await db.schema.alterTable("staff_sessions").addColumn("verified_at", "text").execute();
    },
    async down(db) {
      await db.schema.alterTable("staff_sessions").dropColumn("verified_at").execute();
    },
  },

  /**
   * The approver's own acknowledgement of the medicine and price warning, as they approve
   * (docs/decisions/176): recorded, not inferred, since what the warning finds may change.
   */
  "014-approval-version": {
    async up(db) {
      await db.schema
        .alterTable("announcement_drafts")
        .addColumn("approval_acknowledged_at", "text")
        .execute();
    },
    async down(db) {
      await db.schema
        .alterTable("announcement_drafts")
        .dropColumn("approval_acknowledged_at")
        .execute();
    },
  },
};
