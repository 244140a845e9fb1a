import type { Kysely } from "kysely";
import { type Migration, Migrator } from "kysely/migration";

import * as createRegistrations from "./migrations/001-create-registrations.ts";
import * as createOutbox from "./migrations/002-create-outbox.ts";
import type { Database } from "./schema.ts";

/**
 * Listed statically rather than read from disk, so the server and the CLI run
 * the same set whatever the working directory. Names sort in applying order.
 */
const migrations: Record<string, Migration> = {
  "001-create-registrations": createRegistrations,
  "002-create-outbox": createOutbox,
};

/** Applies pending migrations; Kysely takes a lock so concurrent starters wait their turn. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
