import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it, onTestFinished } from "vitest";

import { dataDirProblem, dataDirUses, startupLine } from "./startup.ts";

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-data-dir-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("DATA_DIR", () => {
  it("is fine when writable, and the check leaves nothing behind", () => {
    const dir = tempDir();
    expect(dataDirProblem({ DATA_DIR: path.join(dir, "new") })).toBeUndefined();
    expect(readdirSync(path.join(dir, "new"))).toEqual([]);
  });

  it("names the directory, the user and the remedy when it cannot be written", () => {
    // A file where the directory should be: refused to root as well as anyone else
    // (the tests run as root, whom permissions do not stop).
    const file = path.join(tempDir(), "file");
    writeFileSync(file, "");
    const dataDir = path.join(file, "data");
    const message = dataDirProblem({ DATA_DIR: dataDir }, { uid: 1000, gid: 1000 });
    expect(message).toContain(
      `DATA_DIR ${dataDir} is not writable by this server (uid 1000, gid 1000): ENOTDIR`,
    );
    expect(message).toContain("It holds the SQLite database and the emails written as files");
    expect(message).toContain("chown -R 1000:1000");
  });

  it("is not needed with PostgreSQL and SMTP", () => {
    const remote = { DATABASE_URL: "postgres://db/x", SMTP_URL: "smtp://mail" };
    expect(dataDirUses(remote)).toEqual([]);
    expect(dataDirProblem({ ...remote, DATA_DIR: "/proc/nope" })).toBeUndefined();
    expect(dataDirUses({ DATABASE_URL: "postgres://db/x" })).toEqual([
      "the emails written as files under mail/",
    ]);
  });
});

describe("the line npm start prints on a terminal", () => {
  it("gives the address to open, the SQLite file and the mail folder by default", () => {
    expect(startupLine({ HOST: "0.0.0.0", DATA_DIR: "./data" }, 3000)).toBe(
      "Open http://localhost:3000 · database: SQLite data/registrations.sqlite · " +
        "emails: written as files under data/mail/ (SMTP_URL unset)",
    );
  });

  it("names PostgreSQL and the SMTP server without their passwords", () => {
    const line = startupLine(
      {
        HOST: "127.0.0.1",
        DATA_DIR: "/data",
        DATABASE_URL: "postgres://clinic:secret@db.internal:5432/clinic",
        SMTP_URL: "smtp://user:hunter2@smtp.example.com:587",
      },
      8080,
    );
    expect(line).toBe(
      "Open http://localhost:8080 · database: PostgreSQL db.internal:5432/clinic · " +
        "emails: sent through SMTP smtp.example.com:587",
    );
    expect(line).not.toMatch(/secret|hunter2/);
  });

  it("shows a specific listening address as it is", () => {
    expect(startupLine({ HOST: "192.0.2.10", DATA_DIR: "./data" }, 3000)).toContain(
      "http://192.0.2.10:3000",
    );
  });
});
