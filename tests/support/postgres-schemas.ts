/**
 * Vitest's global setup: one schema prefix for the run's PostgreSQL tests, whose schemas
 * are dropped after the last file rather than one by one (see scripts/lib/postgres.ts).
 */
import { randomUUID } from "node:crypto";

import { dropPostgresSchemas } from "../../scripts/lib/postgres.ts";

export default function setup() {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) return;
  const prefix = `test_${randomUUID().slice(0, 8)}_`;
  // Workers start after this and inherit the environment.
  process.env.TEST_SCHEMA_RUN = prefix;
  return () => dropPostgresSchemas(databaseUrl, prefix);
}
