/**
 * A server of a spec's own with its console on a free port, for specs that set the number of
 * managers (the shared e2e server's staff are every spec's): its database, staff seeded into
 * it, pages signed in as one of them, and posts as a script would send them.
 */
import type { DatabaseSync } from "node:sqlite";

import type { Browser, Page } from "@playwright/test";

import { consoleCookie, type SeededStaff, seedStaff, signInAs, withDatabase } from "./console.ts";
import type { StaffRole } from "../../contract/console.ts";
import { freePort, startServer } from "../../scripts/lib/server-process.ts";

export type OwnConsole = Awaited<ReturnType<typeof startOwnConsole>>;

export async function startOwnConsole(env: Record<string, string> = {}) {
  const consolePort = await freePort();
  const url = `http://localhost:${consolePort}`;
  const server = await startServer({
    env: { ...env, CONSOLE_PORT: String(consolePort), CONSOLE_URL: url },
    keepOutput: false,
  });
  const db = <T>(run: (d: DatabaseSync) => T) => withDatabase(run, server.dataDir);
  return {
    server,
    url,
    db,
    seed: (role: StaffRole, label: string) => seedStaff(role, label, server.dataDir),
    /** Managers of earlier tests step aside, with their requests: each test sets the number it needs. */
    onlyManagers(...staff: SeededStaff[]) {
      db((d) => {
        d.prepare(
          `UPDATE staff SET removed_at = ? WHERE role = 'manager' AND removed_at IS NULL
             AND id NOT IN (${staff.map(() => "?").join(", ")})`,
        ).run(new Date().toISOString(), ...staff.map((s) => s.id));
        d.exec("DELETE FROM staff_requests");
      });
    },
    async pageFor(browser: Browser, staff: SeededStaff): Promise<Page> {
      const context = await browser.newContext();
      await signInAs(context, staff);
      return context.newPage();
    },
    /** A path or an address on the console, posted with the staff member's session. */
    post: (target: string, staff: SeededStaff, body: string) =>
      fetch(new URL(target, url), {
        method: "POST",
        headers: {
          cookie: `${consoleCookie.name}=${staff.token}`,
          origin: url,
          "content-type": "application/x-www-form-urlencoded",
        },
        body,
        redirect: "manual",
      }),
  };
}
