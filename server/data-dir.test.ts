import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { dataDirProblem, dataDirUses } from "./data-dir.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-data-dir-"));
  made.push(dir);
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
    expect(dataDirUses({ DATABASE_URL: "postgres://db/x", SMTP_URL: "smtp://mail" })).toEqual([]);
    expect(
      dataDirProblem({
        DATA_DIR: "/proc/nope",
        DATABASE_URL: "postgres://db/x",
        SMTP_URL: "smtp://m",
      }),
    ).toBeUndefined();
    expect(dataDirUses({ DATABASE_URL: "postgres://db/x" })).toEqual([
      "the emails written as files under mail/",
    ]);
  });
});
