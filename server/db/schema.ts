import type { Generated, Kysely } from "kysely";

// Timestamps are ISO 8601 UTC text on both dialects, so they sort as strings (decision 030).

/** The later of two timestamps, either of which may be null. */
export const later = (a: string | null, b: string | null) =>
  a === null || (b !== null && b > a) ? b : a;

export type OutboxStatus = "pending" | "delivered" | "dead";

export type OutboxKind = "spreadsheet" | "mail";

/** Spreadsheet: registration or status; mail: confirmation or announcement. */
export type OutboxTopic = "registration" | "status" | "confirmation" | "announcement";

export interface RegistrationsTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  client_timestamp: string | null;
  received_at: string;
  idempotency_key: string;
  /** The consent wording shown (app/content/registration.ts); null before migration 004. */
  consent_version: string | null;
  consent_at: string | null;
  /** 1 when the registrant ticked "occasional updates before launch". */
  wants_updates: Generated<number>;
  confirmed_at: string | null;
  /** Set by an unsubscribe link; no mail goes to the address after it. */
  unsubscribed_at: string | null;
  /** The visit's campaign and referring host, only with analytics consent (migration 010). */
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referrer_host: string | null;
  /** 1 when the visitor allowed analytics, so the four above were recorded (even if empty). */
  source_recorded: Generated<number>;
}

export interface OutboxTable {
  id: string;
  registration_id: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  kind: Generated<OutboxKind>;
  topic: Generated<OutboxTopic>;
  announcement_id: string | null;
  /** Unique when set: an announcement is queued once per address. */
  dedupe_key: string | null;
  /** Mail only: set while the message is with the transport, until this time (migration 005). */
  sending_until: string | null;
}

// contract/console.ts's, written again: importing it would put that file on every
// registration's path (tests/lint/registration-path.test.ts).
type StaffRole = "viewer" | "manager";

export interface Database {
  registrations: RegistrationsTable;
  outbox: OutboxTable;
  /** What an erasure leaves: no personal data (docs/decisions/079). */
  erasures: {
    id: string;
    /** HMAC-SHA256 (hex) of the trimmed, lower-cased address, keyed with erasure_key. */
    email_hash: string;
    erased_at: string;
    registrations: number;
    /** 1 when a copy had been, or may have been, sent to the spreadsheet. */
    sent_to_spreadsheet: number;
    /** JSON array of the ids of those registrations (the spreadsheet's id column). */
    spreadsheet_ids: string;
  };
  erasure_key: { id: number; hmac_key: string };
  announcements: { id: string; subject: string; body: string; created_at: string };
  /** Addresses a mail server refused for good: the erasure key's hash, never the address. */
  mail_suppressions: {
    email_hash: string;
    /** The refusal as SMTP code and enhanced status only, e.g. "550 5.1.1". */
    reply: string;
    suppressed_at: string;
  };
  link_key: { id: number; hmac_key: string };
  /** Staff console (migration 008, docs/decisions/133). Emails are lower-cased. */
  staff: {
    id: string;
    email: string;
    role: StaffRole;
    created_at: string;
    removed_at: string | null;
    /** Who alone made them a manager (migration 012, decision 175); null: the CLI or agreed. */
    manager_by: string | null;
  };
  staff_passkeys: {
    /** base64url, as WebAuthn gives it. */
    credential_id: string;
    staff_id: string;
    /** The COSE public key, base64url. */
    public_key: string;
    counter: number;
    /** JSON array of transport hints. */
    transports: string;
    created_at: string;
    last_used_at: string | null;
  };
  /** One-time enrolment links: the SHA-256 of the token, never the token. */
  staff_invites: {
    token_hash: string;
    email: string;
    role: StaffRole;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    /** The manager_by the enrolment gives (migration 012). */
    manager_by: string | null;
    /** Who made it; null: the command line. */
    invited_by: string | null;
    /** 1 when it replaces the passkeys of someone reset. */
    reset: Generated<number>;
  };
  /** Staff changes waiting for a second manager's agreement (decision 175). */
  staff_requests: {
    id: string;
    change: "invite" | "role" | "remove" | "reset";
    staff_id: string | null;
    email: string;
    role: StaffRole | null;
    requested_by: string;
    requested_at: string;
  };
  staff_sessions: {
    token_hash: string;
    staff_id: string;
    created_at: string;
    last_seen_at: string;
    /** The last confirmation with a passkey (migration 013); null: none since sign-in. */
    verified_at: string | null;
  };
  staff_challenges: { challenge: string; purpose: string; subject: string; expires_at: string };
  /** Append-only; never a registrant's address. `detail` is a JSON object. */
  audit_trail: {
    id: string;
    at: string;
    staff_id: string | null;
    action: string;
    registration_id: string | null;
    detail: string;
  };
  /** An announcement on its way to approval and the outbox (docs/decisions/136). */
  announcement_drafts: {
    id: string;
    subject: string;
    body: string;
    audience: "all" | "updates";
    state: "draft" | "submitted" | "approved" | "sending" | "sent" | "withdrawn";
    announcement_id: string;
    author_id: string | null;
    created_at: string;
    updated_at: string;
    warning_acknowledged_by: string | null;
    warning_acknowledged_at: string | null;
    submitted_at: string | null;
    approved_by: string | null;
    approved_at: string | null;
    /** When the approver ticked the warning's box as they approved (migration 014). */
    approval_acknowledged_at: string | null;
    sent_by: string | null;
    send_started_at: string | null;
    queued_at: string | null;
    finished_at: string | null;
    withdrawn_at: string | null;
  };
}

export type Dialect = "sqlite" | "postgres";

export type Db = Kysely<Database>;

export type DatabaseHandle = { db: Db; dialect: Dialect };

/** A migration's random key: `link_key` signs email links, `erasure_key` hashes erasures. */
export async function loadKey(db: Db, table: "link_key" | "erasure_key"): Promise<string> {
  const row = await db
    .selectFrom(table)
    .select("hmac_key")
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return row.hmac_key;
}
