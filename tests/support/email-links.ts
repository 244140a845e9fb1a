/**
 * Genuine email links for tests: a registration made through the server, then tokens
 * signed with the link key the server's own database holds (table link_key), exactly as
 * the confirmation email would carry them (server/shared/links.ts).
 */
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { expect } from "@playwright/test";

import { linkTokenParam, registrationPaths } from "../../contract/registrations.ts";
import {
  newRegistration,
  postRegistration,
  registrationsCli,
  registrationsFor,
} from "../../scripts/lib/registrations.ts";
import { confirmToken, unsubscribeToken } from "../../server/shared/links.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

function dataDirOf(dataDir = process.env.E2E_DATA_DIR): string {
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the specs through playwright");
  return dataDir;
}

/** The key the server signs links with. */
export function linkKey(dataDir?: string): string {
  const db = new DatabaseSync(path.join(dataDirOf(dataDir), "registrations.sqlite"), {
    readOnly: true,
  });
  try {
    const row = db.prepare("SELECT hmac_key FROM link_key WHERE id = 1").get() as
      { hmac_key: string } | undefined;
    if (!row) throw new Error("the database has no link key");
    return row.hmac_key;
  } finally {
    db.close();
  }
}

export type Registrant = {
  email: string;
  id: string;
  /** A confirm link's token, issued now unless `issuedAt` says otherwise. */
  confirmToken(issuedAt?: Date): string;
  unsubscribeToken(): string;
};

/** Registers a new address through the form's POST, as a browser without JavaScript. */
export async function registerSomeone(
  baseUrl: string,
  label: string,
  dataDir?: string,
): Promise<Registrant> {
  const registration = newRegistration(label);
  const { email } = registration;
  const response = await postRegistration(baseUrl, registration);
  expect(response.status, `registering ${email}`).toBe(200);
  const rows = registrationsFor(email, dataDirOf(dataDir));
  expect(rows).toHaveLength(1);
  const id = rows[0]?.id ?? "";
  const key = linkKey(dataDir);
  return {
    email,
    id,
    confirmToken: (issuedAt = new Date()) => confirmToken(key, id, issuedAt),
    unsubscribeToken: () => unsubscribeToken(key, id),
  };
}

/** A confirm link issued `days` ago (7 is the limit). */
export function daysAgo(days: number): Date {
  return new Date(Date.now() - days * DAY_MS);
}

export function confirmPath(token: string): string {
  return `${registrationPaths.confirm}?${linkTokenParam}=${encodeURIComponent(token)}`;
}

export function unsubscribePath(token: string): string {
  return `${registrationPaths.unsubscribe}?${linkTokenParam}=${encodeURIComponent(token)}`;
}

export type ShownRegistration = { confirmedAt: string | null; unsubscribedAt: string | null };

/** What `npm run registrations -- show --email` prints for the address. */
export async function showRegistrations(
  email: string,
  dataDir?: string,
): Promise<ShownRegistration[]> {
  const shown = await registrationsCli({ DATA_DIR: dataDirOf(dataDir) }, [
    "show",
    "--email",
    email,
  ]);
  return (JSON.parse(shown) as { registrations: ShownRegistration[] }).registrations;
}
