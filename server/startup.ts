import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { SQLITE_FILE_NAME } from "./db/database.ts";
import type { Env } from "./env.ts";
import { mailDirectory } from "./mail/transport.ts";

export function dataDirUses(env: Pick<Env, "DATABASE_URL" | "SMTP_URL">): string[] {
  return [
    ...(env.DATABASE_URL ? [] : ["the SQLite database"]),
    ...(env.SMTP_URL ? [] : ["the emails written as files under mail/"]),
  ];
}

/** Which directory, as which user, and what to do: SQLite's own error names neither. */
export function dataDirProblem(
  env: Pick<Env, "DATA_DIR" | "DATABASE_URL" | "SMTP_URL">,
  ids: { uid: number; gid: number } = {
    uid: process.getuid?.() ?? -1,
    gid: process.getgid?.() ?? -1,
  },
): string | undefined {
  const uses = dataDirUses(env);
  if (uses.length === 0) return undefined;
  const dir = path.resolve(env.DATA_DIR);
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "");
    rmSync(probe);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return (
      `DATA_DIR ${dir} is not writable by this server (uid ${ids.uid}, gid ${ids.gid}): ${code}. ` +
      `It holds ${uses.join(" and ")}. Make the directory owned by uid ${ids.uid} ` +
      `(for the container's volume: chown -R ${ids.uid}:${ids.gid} on the host directory ` +
      "mounted at /data), or set DATA_DIR to a directory this user can write."
    );
  }
}

/** For a terminal: where to open the site, the database and the mail, without secrets. */
export function startupLine(
  env: Pick<Env, "HOST" | "DATA_DIR" | "DATABASE_URL" | "SMTP_URL">,
  port: number,
): string {
  const wildcard = ["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(env.HOST);
  const host = wildcard ? "localhost" : env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  const database = env.DATABASE_URL
    ? `PostgreSQL ${new URL(env.DATABASE_URL).host}${new URL(env.DATABASE_URL).pathname}`
    : `SQLite ${path.join(env.DATA_DIR, SQLITE_FILE_NAME)}`;
  const mail = env.SMTP_URL
    ? `sent through SMTP ${new URL(env.SMTP_URL).host}`
    : `written as files under ${mailDirectory(env.DATA_DIR)}${path.sep} (SMTP_URL unset)`;
  return `Open http://${host}:${port} · database: ${database} · emails: ${mail}`;
}
