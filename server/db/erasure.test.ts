import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { sql } from "kysely";
import { describe, expect, it, onTestFinished } from "vitest";

import { runCli } from "../cli/run.ts";
import { createLogger } from "../logger.ts";
import { createDatabase, SQLITE_FILE_NAME } from "./database.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { sqliteBackend } from "../../tests/support/storage-backends.ts";
import { openServices } from "../services.ts";

const logger = createLogger("silent");

/** The database file and the two files SQLite keeps beside it in WAL mode. */
function databaseBytes(dataDir: string): Buffer {
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  return Buffer.concat(
    [file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((f) => readFileSync(f)),
  );
}

describe("erasure on SQLite", () => {
  it("leaves no trace of the address or the message in the database file or its log", async () => {
    // No spreadsheet: its worker would try to forward, and the person would then count
    // as forwarded. Spreadsheet copies have their own test in the storage contract.
    const place = await sqliteBackend.fresh();
    onTestFinished(place.drop);
    // The running server, open while staff erase from the CLI. It writes the
    // confirmation emails as files (SMTP_URL is unset), which hold the address too.
    const server = await openServices(place.env, logger, { mail: { pollIntervalMs: 20 } });
    onTestFinished(() => server.close());

    const tag = randomUUID();
    const said = {
      name: `Erase Me ${tag}`,
      email: `erase.me.${tag}@example.com`,
      message: `My private symptoms ${tag}, please call after six`,
    };
    const person = newRegistration("erase", said);
    const others = Array.from({ length: 50 }, () => newRegistration("keep"));
    for (const p of [...others.slice(0, 25), person, ...others.slice(25)]) {
      await server.registrations.register(p);
    }
    server.start();
    const mailDir = path.join(place.env.DATA_DIR, "mail");
    const mailFiles = () => (existsSync(mailDir) ? readdirSync(mailDir) : []);
    await expect.poll(() => mailFiles().length, { timeout: 10_000 }).toBe(51);
    const mentions = (text: string) =>
      mailFiles().filter((f) => readFileSync(path.join(mailDir, f)).includes(text)).length;
    expect(mentions(person.email)).toBe(1);
    const expectOnDisk = (present: boolean) => {
      const bytes = databaseBytes(place.env.DATA_DIR);
      for (const text of [said.email, said.message, said.name]) {
        expect(bytes.includes(Buffer.from(text, "utf8")), text).toBe(present);
      }
    };
    // Before: the text is on disk (so the search below can find it).
    expectOnDisk(true);

    let stdout = "";
    const code = await runCli(["erase", "--email", person.email.toUpperCase()], {
      env: place.env,
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stdout += t),
      openServices: (env) => openServices(env, logger),
    });
    expect(code).toBe(0);
    expect(stdout).toBe(
      "Erased 1 registration and 1 outbox record (spreadsheet deliveries and emails) for that address.\n" +
        `Deleted 1 email file written for it under ${mailDir}.\n`,
    );
    expect(mentions(person.email)).toBe(0);
    expect(mailFiles()).toHaveLength(50);
    expectOnDisk(false);
    // The log was emptied; the others are all still there.
    const wal = path.join(place.env.DATA_DIR, `${SQLITE_FILE_NAME}-wal`);
    expect(existsSync(wal) ? readFileSync(wal).length : 0).toBe(0);
    expect(await server.admin.count()).toBe(50);

    // And staff can still learn that the address was erased, and when.
    expect(await server.admin.erasures(person.email)).toEqual([
      {
        erasedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        registrations: 1,
        sentToSpreadsheet: false,
        spreadsheetIds: [],
      },
    ]);
  });

  it("an erase that reads first still gets to write when another process commits in between", async () => {
    // The server (one connection) and the CLI (another), as in production: the erase
    // reads, the server commits a registration, then the erase writes. In a deferred
    // transaction SQLite refuses that write at once (a stale snapshot), whatever the
    // busy timeout; every SQLite transaction begins IMMEDIATE, so the other writer waits instead.
    const place = await sqliteBackend.fresh();
    onTestFinished(place.drop);
    const services = await openServices(place.env, logger);
    onTestFinished(() => services.close());
    const cli = createDatabase(place.env, logger, { busyTimeoutMs: 5_000 });
    const server = createDatabase(place.env, logger, { busyTimeoutMs: 50 });
    onTestFinished(() => cli.db.destroy());
    onTestFinished(() => server.db.destroy());
    const insertElsewhere = () =>
      sql`insert into erasures (id, email_hash, erased_at, registrations, sent_to_spreadsheet, spreadsheet_ids)
          values (${randomUUID()}, 'x', '2026-01-01', 0, 0, '[]')`.execute(server.db);

    /** The erase: it reads, `between` runs, then it writes. */
    const erase = (between: () => Promise<unknown>) =>
      cli.db.transaction().execute(async (trx) => {
        await sql`select count(*) from registrations`.execute(trx);
        await between();
        await sql`delete from registrations`.execute(trx);
        return "written";
      });

    // The other process tries to commit in between: with the write lock held it times out.
    const erased = erase(() => expect(insertElsewhere()).rejects.toThrow());
    await expect(erased).resolves.toBe("written");
    // The deferred transaction it replaced fails the same sequence.
    await expect(erase(insertElsewhere)).rejects.toThrow();
  });
});
