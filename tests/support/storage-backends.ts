import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

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

/**
 * Each test gets its own schema, reached through search_path in the connection
 * URL, so parallel test files and CI runs sharing one server never collide.
 */
export const postgresBackend: TestBackend = {
  name: "postgres",
  enabled: Boolean(testDatabaseUrl),
  async fresh(extra = {}) {
    if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
    const schema = `test_${randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}`);
    } finally {
      await admin.end();
    }
    const url = new URL(testDatabaseUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    return {
      env: parseEnv({ DATABASE_URL: url.toString(), ...extra }),
      async drop() {
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.end();
        }
      },
    };
  },
};

export const backends = [sqliteBackend, postgresBackend];
