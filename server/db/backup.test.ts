import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { describe, expect, it, onTestFinished } from "vitest";

import { newRegistration } from "../../scripts/lib/registrations.ts";
import { sqliteBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { type CliIo, runCli } from "../cli/run.ts";
import { parseEnv } from "../env.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";

const logger = createLogger("silent");
const open: CliIo["openServices"] = (env) => openServices(env, logger);

async function cli({ env }: Pick<TestPlace, "env">, args: string[], openWith = open) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    env,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    openServices: openWith,
  });
  return { code, stdout, stderr };
}

const rowsOf = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT * FROM registrations").all();
    return new Map(rows.map((r) => [r.id, { ...r }]));
  } finally {
    db.close();
  }
};

describe("registrations -- backup", () => {
  it("copies the database while the server writes: a whole, consistent snapshot", async () => {
    const place = await sqliteBackend.fresh();
    onTestFinished(place.drop);
    const server: Services = await openServices(place.env, logger);
    onTestFinished(() => server.close());
    const register = () => {
      const person = newRegistration("backup");
      return server.registrations.register({ ...person, message: `${person.message} `.repeat(30) });
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
    const result = await cli(place, ["backup", "--to", target]);
    writing = false;
    await writer;
    const after = await server.admin.count();

    expect(result).toMatchObject({ code: 0, stderr: "" });
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
    onTestFinished(place.drop);
    await (await openServices(place.env, logger)).close();
    const target = path.join(place.env.DATA_DIR, "existing.sqlite");
    writeFileSync(target, "precious");

    const refused = await cli(place, ["backup", "--to", target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already exists; pass --force to replace it/);
    expect(readFileSync(target, "utf8")).toBe("precious");

    const forced = await cli(place, ["backup", "--to", target, "--force"]);
    expect(forced).toMatchObject({ code: 0, stderr: "" });
    expect(forced.stdout).toMatch(/^Backed up 0 registrations to .* \(integrity check: ok\)\.\n$/);
    expect((await cli(place, ["backup"])).code).toBe(2);
  });

  it("on PostgreSQL, explains pg_dump and fails", async () => {
    const env = parseEnv({ DATABASE_URL: "postgres://127.0.0.1:9/none" });
    const { code, stderr } = await cli({ env }, ["backup", "--to", "/tmp/never.sqlite"], () =>
      Promise.reject(new Error("must not open the database")),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/use pg_dump instead/);
    expect(existsSync("/tmp/never.sqlite")).toBe(false);
  });
});
