import path from "node:path";

import { SQLITE_FILE_NAME } from "./db/database.ts";
import type { Env } from "./env.ts";
import { mailDirectory } from "./mail/transport.ts";

/**
 * The one plain line `npm start` prints when its output is a terminal: where to open
 * the site, where registrations are stored and where emails go. Logs stay JSON.
 * No secrets: only the database's host and name, and the mail server's host.
 */
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
