/**
 * Table shapes as Kysely sees them. Timestamps are ISO 8601 UTC text on both
 * dialects (see docs/decisions/030), so they sort and compare as strings.
 */
export type OutboxStatus = "pending" | "delivered" | "dead";

export interface RegistrationsTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  client_timestamp: string | null;
  received_at: string;
  idempotency_key: string;
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
}

/** What an erasure leaves: no personal data (docs/decisions/079). */
export interface ErasuresTable {
  id: string;
  /** HMAC-SHA256 (hex) of the trimmed, lower-cased address, keyed with erasure_key. */
  email_hash: string;
  erased_at: string;
  registrations: number;
  /** 1 when a copy had been, or may have been, sent to the spreadsheet. */
  forwarded: number;
  /** JSON array of the ids of those registrations (the spreadsheet's id column). */
  forwarded_ids: string;
}

export interface ErasureKeyTable {
  id: number;
  hmac_key: string;
}

export interface Database {
  registrations: RegistrationsTable;
  outbox: OutboxTable;
  erasures: ErasuresTable;
  erasure_key: ErasureKeyTable;
}

export type Dialect = "sqlite" | "postgres";
