/**
 * The contract between route actions (app/) and storage (server/): the one module both
 * sides import (docs/decisions/062). The implementation lives in
 * server/registrations/service.ts and reaches actions through React Router context.
 */

/** What the registrant agreed to, as the form showed it (docs/decisions/087). */
export type Consent = {
  /** The version of the consent wording shown beside the submit button. */
  version: string;
  /** The optional, unticked box: occasional updates before launch. */
  wantsUpdates: boolean;
};

/** A registration after validation, as the action hands it to storage. */
export type NewRegistration = {
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  /** The ISO timestamp the browser sent, kept exactly as sent. */
  clientTimestamp: string | null;
  idempotencyKey: string;
  consent: Consent;
};

export type StoredRegistration = Omit<NewRegistration, "consent"> & {
  id: string;
  /** When the server received it, ISO 8601 UTC. */
  receivedAt: string;
  /** Null for registrations stored before consent was recorded. */
  consent: (Consent & { at: string }) | null;
  /** When the address was confirmed through the emailed link (double opt-in). */
  confirmedAt: string | null;
  unsubscribedAt: string | null;
};

export type RegisterResult =
  | { kind: "created"; registration: StoredRegistration }
  /** The same idempotency key was seen before: nothing new was stored. */
  | { kind: "duplicate"; registration: StoredRegistration };

/**
 * What a link from an email leads to. `invalid`: forged, altered or garbled;
 * `expired`: a genuine confirm link past its 7 days; `gone`: genuine, but the
 * registration is no longer stored (erased, purged). None of these changes anything.
 */
export type LinkProblem = { kind: "invalid" } | { kind: "expired" } | { kind: "gone" };

export type ConfirmResult = { kind: "confirmed"; firstTime: boolean } | LinkProblem;

/**
 * Looking at a confirm link before pressing the button (GET, HEAD, `.data`): link
 * scanners open links, so looking never confirms (docs/decisions/100).
 */
export type ConfirmCheck = { kind: "valid"; alreadyConfirmed: boolean } | LinkProblem;

/** Looking at an unsubscribe link before pressing the button (GET). */
export type UnsubscribeCheck = { kind: "valid"; alreadyUnsubscribed: boolean } | LinkProblem;

export type UnsubscribeResult = { kind: "unsubscribed"; firstTime: boolean } | LinkProblem;

/** Joining the list again from an unsubscribe link's page (docs/decisions/101). */
export type RejoinResult = { kind: "rejoined" } | LinkProblem;

export interface RegistrationService {
  /**
   * Stores durably (committed, fsynced) before resolving, with the confirmation email
   * queued in the same transaction. Rejects with StorageUnavailableError when the
   * database cannot be reached.
   */
  register(input: NewRegistration): Promise<RegisterResult>;
  /** Whether a confirm link is genuine and still to be pressed, without acting on it. */
  checkConfirm(token: string): Promise<ConfirmCheck>;
  /** The confirm button's POST: marks the registration confirmed; a second time changes nothing. */
  confirm(token: string): Promise<ConfirmResult>;
  /** Whether an unsubscribe link is genuine, without acting on it. */
  checkUnsubscribe(token: string): Promise<UnsubscribeCheck>;
  /**
   * Unsubscribes the link's address (every registration of it) and drops its queued
   * mail; safe to repeat.
   */
  unsubscribe(token: string): Promise<UnsubscribeResult>;
  /**
   * From an unsubscribe link (which proves the person reads that mailbox): confirms the
   * address's newest registration again and lifts its unsubscribe, so mail may go to the
   * address again. Safe to repeat.
   */
  rejoin(token: string): Promise<RejoinResult>;
}

/** Thrown when the database is unreachable or read-only; the action answers 503. */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

/**
 * Paths the emails link to and the no-JavaScript form redirects to; the app's route
 * table (app/routes.ts) uses the same strings, and a test holds them together.
 */
export const registrationPaths = {
  /** The form's action without JavaScript; answers a page. */
  form: "/register-interest",
  /** The same action for the form's script; answers JSON (docs/decisions/126). */
  submit: "/register-interest/submit",
  thankYou: "/register-interest/thank-you",
  confirm: "/register-interest/confirm",
  unsubscribe: "/unsubscribe",
} as const;

/** The query parameter that carries a link's token. */
export const linkTokenParam = "token";
