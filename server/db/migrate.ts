import { type Kysely, sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";

import * as createRegistrations from "./migrations/001-create-registrations.ts";
import * as createOutbox from "./migrations/002-create-outbox.ts";
import * as createErasures from "./migrations/003-create-erasures.ts";
import * as consentMailAndLinks from "./migrations/004-consent-mail-and-links.ts";
import * as mailHandoffAndSuppressions from "./migrations/005-mail-handoff-and-suppressions.ts";
import * as addressIndex from "./migrations/006-address-index.ts";
import * as addressLock from "./migrations/007-address-lock.ts";
import * as staffConsole from "./migrations/008-staff-console.ts";
import type { Database, Dialect } from "./schema.ts";

/**
 * Listed statically rather than read from disk, so the server and the CLI run
 * the same set whatever the working directory. Names sort in applying order.
 */
const migrations: Record<string, Migration> = {
  "001-create-registrations": createRegistrations,
  "002-create-outbox": createOutbox,
  "003-create-erasures": createErasures,
  "004-consent-mail-and-links": consentMailAndLinks,
  "005-mail-handoff-and-suppressions": mailHandoffAndSuppressions,
  "006-address-index": addressIndex,
  "007-address-lock": addressLock,
  "008-staff-console": staffConsole,
};

/** Applies pending migrations; Kysely takes a lock so concurrent starters wait their turn. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its bookkeeping tables in every schema unless told which one;
    // name the connection's own so another schema's tables are never mistaken for ours.
    migrationTableSchema: dialect === "postgres" ? await currentSchema(db) : undefined,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("PostgreSQL reports no current schema: check search_path");
  return schema;
}
