/**
 * Test-only reads of the registrations the e2e server stored: the SQLite file in the
 * DATA_DIR that playwright.config.ts created and shares through E2E_DATA_DIR.
 */
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

export type RegistrationRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  client_timestamp: string | null;
  received_at: string;
  idempotency_key: string;
  consent_version: string | null;
  wants_updates: number;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
};

export function openRegistrations(dataDir = process.env.E2E_DATA_DIR) {
  if (!dataDir)
    throw new Error("E2E_DATA_DIR is not set: run the specs through playwright.config.ts");
  return new DatabaseSync(path.join(dataDir, "registrations.sqlite"), { readOnly: true });
}

/** Every stored registration with this email address. */
export function registrationsFor(email: string, dataDir?: string): RegistrationRow[] {
  const db = openRegistrations(dataDir);
  try {
    return db
      .prepare("SELECT * FROM registrations WHERE email = ? ORDER BY received_at")
      .all(email) as RegistrationRow[];
  } finally {
    db.close();
  }
}

/** A unique address per test, so parallel tests never see each other's rows. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.co.uk`;
}

/** How many rows each idempotency key has, over the whole table. */
export function rowsPerKey(dataDir?: string): Map<string, { count: number; email: string }> {
  const db = openRegistrations(dataDir);
  try {
    const rows = db
      .prepare(
        "SELECT idempotency_key AS key, COUNT(*) AS count, MIN(email) AS email FROM registrations GROUP BY idempotency_key",
      )
      .all() as { key: string; count: number; email: string }[];
    return new Map(rows.map((r) => [r.key, { count: Number(r.count), email: r.email }]));
  } finally {
    db.close();
  }
}
