import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { backup, DatabaseSync } from "node:sqlite";

import { openSqliteFile, SQLITE_FILE_NAME } from "./database.ts";

/** More pages than any database has: Node 24.21 refuses the -1 that once meant "all". */
const ALL_PAGES = 2 ** 31 - 1;

/** SQLite's online backup in one read transaction, which WAL lets writes pass (decision 080). */
export async function backupSqlite(
  dataDir: string,
  target: string,
  options: { overwrite: boolean },
) {
  const file = path.resolve(target);
  if (!options.overwrite && existsSync(file)) {
    throw new Error(`${file} already exists; pass --force to replace it`);
  }
  const source = path.resolve(dataDir, SQLITE_FILE_NAME);
  if (!existsSync(source)) throw new Error(`There is no database at ${source}`);
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const db = openSqliteFile(source, { busyTimeoutMs: 5_000 });
  try {
    await backup(db, partial, { rate: ALL_PAGES });
  } finally {
    db.close();
  }
  try {
    const copy = new DatabaseSync(partial);
    try {
      // One self-contained file: no -wal or -shm beside the backup.
      copy.exec("PRAGMA journal_mode = DELETE");
      const integrity = String(copy.prepare("PRAGMA integrity_check").get()?.integrity_check);
      if (integrity !== "ok")
        throw new Error(`The backup failed its integrity check: ${integrity}`);
      const counted = copy.prepare("SELECT count(*) AS n FROM registrations").get();
      copy.close();
      if (!options.overwrite && existsSync(file)) {
        throw new Error(`${file} appeared while the backup ran; pass --force to replace it`);
      }
      renameSync(partial, file);
      return { file, registrations: Number(counted?.n), integrity };
    } finally {
      if (copy.isOpen) copy.close();
    }
  } finally {
    rmSync(partial, { force: true });
  }
}
