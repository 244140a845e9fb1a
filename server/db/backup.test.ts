import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { afterEach, describe, expect, it } from "vitest";

import { sqliteBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { runCli } from "../cli/run.ts";
import { parseEnv } from "../env.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";

const logger = createLogger("silent");

async function cli(place: TestPlace, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    env: place.env,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    openServices: (env) => openServices(env, logger),
  });
  return { code, stdout, stderr };
}

type Row = Record<string, unknown>;
const rowsOf = (file: string): Map<unknown, Row> => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT * FROM registrations").all() as Row[];
    return new Map(rows.map((r) => [r.id, { ...r }]));
  } finally {
    db.close();
  }
};

describe("registrations -- backup", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  it("copies the database while the server writes: a whole, consistent snapshot", async () => {
    const place = await sqliteBackend.fresh();
    cleanups.push(place.drop);
    const server: Services = await openServices(place.env, logger);
    cleanups.push(() => server.close());
    let n = 0;
    const register = () => {
      n += 1;
      return server.registrations.register({
        name: `Backup Person ${n}`,
        email: `backup${n}@example.com`,
        phone: null,
        message: `message ${n} `.repeat(100),
        clientTimestamp: null,
        idempotencyKey: `backup-${n}`,
        consent: { version: "2026-11-23", wantsUpdates: false },
      });
    };
    await Promise.all(Array.from({ length: 3000 }, register));

    // The server keeps writing until the backup is done.
    let writing = true;
    let writtenDuring = 0;
    const writer = (async () => {
      while (writing) {
        await register();
        writtenDuring += 1;
      }
    })();
    const before = await server.admin.count();
    const target = path.join(place.env.DATA_DIR, "backups", "copy.sqlite");
    const result = await cli(place, "backup", "--to", target);
    writing = false;
    await writer;
    const after = await server.admin.count();

    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const reported = Number(/^Backed up (\d+) registrations to /.exec(result.stdout)?.[1]);
    expect(result.stdout).toContain("(integrity check: ok)");
    // A snapshot of one moment: no fewer rows than when it began, no more than at its end.
    expect(reported).toBeGreaterThanOrEqual(before);
    expect(reported).toBeLessThanOrEqual(after);
    console.log(`backup: ${reported} rows copied while ${writtenDuring} more were written`);

    const copy = new DatabaseSync(target, { readOnly: true });
    expect(copy.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(copy.prepare("SELECT count(*) AS n FROM registrations").get()).toEqual({ n: reported });
    expect(copy.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "delete" });
    copy.close();
    // Every row in the copy is exactly the stored row.
    const live = rowsOf(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    for (const [id, row] of rowsOf(target)) expect(row).toEqual(live.get(id));
    // A single file: no log, no leftover partial copy.
    expect(readdirSync(path.dirname(target))).toEqual(["copy.sqlite"]);
  });

  it("does not overwrite a file unless told to", async () => {
    const place = await sqliteBackend.fresh();
    cleanups.push(place.drop);
    await (await openServices(place.env, logger)).close();
    const target = path.join(place.env.DATA_DIR, "existing.sqlite");
    writeFileSync(target, "precious");

    const refused = await cli(place, "backup", "--to", target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already exists; pass --force to replace it/);
    expect(existsSync(target)).toBe(true);

    const forced = await cli(place, "backup", "--to", target, "--force");
    expect(forced).toMatchObject({ code: 0, stderr: "" });
    expect(forced.stdout).toMatch(/^Backed up 0 registrations to .* \(integrity check: ok\)\.\n$/);
    expect((await cli(place, "backup")).code).toBe(2);
  });

  it("on PostgreSQL, explains pg_dump and fails", async () => {
    const env = parseEnv({ DATABASE_URL: "postgres://127.0.0.1:9/none" });
    let stderr = "";
    const code = await runCli(["backup", "--to", "/tmp/never.sqlite"], {
      env,
      stdout: () => undefined,
      stderr: (t) => void (stderr += t),
      openServices: () => Promise.reject(new Error("must not open the database")),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/use pg_dump instead/);
    expect(existsSync("/tmp/never.sqlite")).toBe(false);
  });
});
