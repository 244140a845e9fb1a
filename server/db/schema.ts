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

export interface Database {
  registrations: RegistrationsTable;
  outbox: OutboxTable;
}

export type Dialect = "sqlite" | "postgres";
