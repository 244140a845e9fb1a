import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import type { Env } from "./env.ts";

export function dataDirUses(env: Pick<Env, "DATABASE_URL" | "SMTP_URL">): string[] {
  return [
    ...(env.DATABASE_URL ? [] : ["the SQLite database"]),
    ...(env.SMTP_URL ? [] : ["the emails written as files under mail/"]),
  ];
}

/**
 * The message an operator needs when the server cannot write DATA_DIR: which directory,
 * as which user, and what to do. SQLite's own ("unable to open database file") names neither.
 */
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
