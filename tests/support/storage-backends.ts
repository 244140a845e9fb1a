import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { freshPostgresSchema } from "../../scripts/lib/postgres.ts";
import { type Env, parseEnv } from "../../server/env.ts";

/** A fresh, empty database for one test, and how to throw it away. */
export type TestPlace = { env: Env; drop(): Promise<void> };

export type TestBackend = {
  name: "sqlite" | "postgres";
  enabled: boolean;
  fresh(extra?: Record<string, string>): Promise<TestPlace>;
};

export const sqliteBackend: TestBackend = {
  name: "sqlite",
  enabled: true,
  fresh(extra = {}) {
    const dir = mkdtempSync(path.join(tmpdir(), "registrations-test-"));
    return Promise.resolve({
      env: parseEnv({ DATA_DIR: dir, ...extra }),
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    });
  },
};

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

export const postgresBackend: TestBackend = {
  name: "postgres",
  enabled: Boolean(testDatabaseUrl),
  async fresh(extra = {}) {
    if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
    const schema = await freshPostgresSchema(testDatabaseUrl);
    return { env: parseEnv({ DATABASE_URL: schema.url, ...extra }), drop: schema.drop };
  },
};

export const backends = [sqliteBackend, postgresBackend];
