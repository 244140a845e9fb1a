/**
 * The contract between route actions (app/) and storage (server/): the one module both
 * sides import (docs/decisions/062). The implementation lives in
 * server/registrations/service.ts and reaches actions through React Router context.
 */

/** A registration after validation, as the action hands it to storage. */
export type NewRegistration = {
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  /** The ISO timestamp the browser sent, kept exactly as sent. */
  clientTimestamp: string | null;
  idempotencyKey: string;
};

export type StoredRegistration = NewRegistration & {
  id: string;
  /** When the server received it, ISO 8601 UTC. */
  receivedAt: string;
};

export type RegisterResult =
  | { kind: "created"; registration: StoredRegistration }
  /** The same idempotency key was seen before: nothing new was stored. */
  | { kind: "duplicate"; registration: StoredRegistration };

export interface RegistrationService {
  /** Stores durably (committed, fsynced) before resolving. Rejects with StorageUnavailableError when the database cannot be reached. */
  register(input: NewRegistration): Promise<RegisterResult>;
}

/** Thrown when the database is unreachable or read-only; the action answers 503. */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}
