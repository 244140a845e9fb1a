import type { RouterContext } from "react-router";

/*
 * The contract between route code (app/) and the server: the one module both import
 * (decision 062). The server's services reach route code through React Router context
 * (decision 007).
 */

export type AppServices = {
  registrations: RegistrationService;
  /** The server's one logger, so LOG_LEVEL and its redaction list apply to route code too. */
  logger: Logger;
  /** The per-request nonce for the Content-Security-Policy of server-rendered HTML. */
  nonce: string;
};

/**
 * The key the services are set under: what React Router's createContext() returns, written
 * out so that the server and the CLI, which load this module at run time, do not load
 * React Router's router code for it (and the island's bundle neither). The server must set
 * the app bundle's copy, which app/entry.server.tsx exports: its own import is another object.
 */
export const appServicesContext: RouterContext<AppServices> = {};

/** The part of the server's pino logger (server/logger.ts) route code uses. Never pass form values. */
export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** What the registrant agreed to, as the form showed it (decision 087). */
export type Consent = {
  /** The version of the consent wording shown beside the submit button. */
  version: string;
  /** The optional, unticked box: occasional updates before launch. */
  wantsUpdates: boolean;
};

/**
 * Where the visit that registered came from (decision 134), only when the visitor allowed
 * analytics: the landing page's utm_* parameters and the referring site's host name, each
 * null when the visit had none.
 */
export type Attribution = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
};

/**
 * The form's hidden attribution fields and the sessionStorage key the page script keeps
 * the visit's values under: the consent script (app/features/consent/) fills what the form
 * (app/features/registration/) posts, and neither feature may import the other.
 */
export const attributionFields = {
  /** "yes" when the visitor allowed analytics: the other four were recorded. */
  allowed: "analytics",
  source: "utm_source",
  medium: "utm_medium",
  campaign: "utm_campaign",
  referrer: "referrer",
} as const;

export const ATTRIBUTION_STORAGE_KEY = "meridian-clinic.visit-source";

export type NewRegistration = {
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  /** The ISO timestamp the browser sent, kept exactly as sent. */
  clientTimestamp: string | null;
  idempotencyKey: string;
  consent: Consent;
  /** Null or absent: not recorded (no analytics consent, or no JavaScript). */
  attribution?: Attribution | null;
};

export type StoredRegistration = Omit<NewRegistration, "consent"> & {
  id: string;
  /** ISO 8601 UTC. */
  receivedAt: string;
  /** Null for registrations stored before consent was recorded. */
  consent: (Consent & { at: string }) | null;
  /** Through the emailed link (double opt-in). */
  confirmedAt: string | null;
  unsubscribedAt: string | null;
};

/** What staff see about an erasure: no personal data, and what is left to do. */
export type ErasureRecord = {
  erasedAt: string;
  registrations: number;
  sentToSpreadsheet: boolean;
  /** To delete there too (its id column). */
  spreadsheetIds: string[];
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

/** Link scanners open links, so looking (GET, HEAD, `.data`) never confirms (decision 100). */
export type ConfirmCheck = { kind: "valid"; alreadyConfirmed: boolean } | LinkProblem;

export type UnsubscribeCheck = { kind: "valid"; alreadyUnsubscribed: boolean } | LinkProblem;

export type UnsubscribeResult = { kind: "unsubscribed"; firstTime: boolean } | LinkProblem;

/** Joining the list again from an unsubscribe link's page (decision 101). */
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
  /** The confirm button's POST; a second time changes nothing. */
  confirm(token: string): Promise<ConfirmResult>;
  checkUnsubscribe(token: string): Promise<UnsubscribeCheck>;
  /** Every registration of the link's address, and its queued mail dropped; safe to repeat. */
  unsubscribe(token: string): Promise<UnsubscribeResult>;
  /**
   * An unsubscribe link proves the person reads that mailbox: confirms the address's
   * newest registration again and lifts its unsubscribe. Safe to repeat.
   */
  rejoin(token: string): Promise<RejoinResult>;
}

/** The database is unreachable or read-only; the action answers 503. */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

/** The app's route table (app/routes.ts) uses the same strings; a test holds them together. */
export const registrationPaths = {
  /** The form's action: a page without JavaScript, JSON when the island asks for it. */
  form: "/register-interest",
  thankYou: "/register-interest/thank-you",
  confirm: "/register-interest/confirm",
  unsubscribe: "/unsubscribe",
} as const;

/** The query parameter that carries a link's token. */
export const linkTokenParam = "token";
