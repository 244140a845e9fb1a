/**
 * The production server sending through the fake SMTP server (scripts/lib/mail-catcher.ts) as
 * the mail specs start it, and what they do beside it as staff would: register people, confirm
 * them straight in the database (the confirm page is not under test there), announce.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { expect } from "@playwright/test";

import type { NewRegistration } from "../../contract/registrations.ts";
import type { MailCatcher } from "../../scripts/lib/mail-catcher.ts";
import {
  approveSubmitted,
  postRegistration,
  registrationsCli,
} from "../../scripts/lib/registrations.ts";
import {
  type ServerProcess,
  type StartOptions,
  startServer,
} from "../../scripts/lib/server-process.ts";

export const mailFrom = "Meridian Men's Health <hello@clinic.test>";

export function startMailSite(
  mail: MailCatcher,
  env: Record<string, string> = {},
  options: Omit<StartOptions, "env"> = {},
): Promise<ServerProcess> {
  return startServer({
    env: { SMTP_URL: mail.url, MAIL_FROM: mailFrom, SITE_URL: "http://localhost:3999", ...env },
    ...options,
  });
}

/** Ten at a time, spread over the servers in turn; each must be stored. */
export async function registerAll(servers: ServerProcess[], people: NewRegistration[]) {
  for (let i = 0; i < people.length; i += 10) {
    const posted = await Promise.all(
      people
        .slice(i, i + 10)
        .map((person, j) => postRegistration(servers[(i + j) % servers.length]!.url, person)),
    );
    for (const p of posted) expect(p.status).toBe(200);
  }
}

/**
 * Set-up's wait for each person's confirmation. On a loaded machine a send can fail and wait out
 * its back-off (30-60 s) before it goes again: 99 of 102 had come after 60 s in a fresh-clone
 * run at load 17. A second copy is the concern of the tests that count them, not of this wait.
 */
export async function confirmationsArrived(mail: MailCatcher, people: NewRegistration[]) {
  const expected = new Set(people.map((p) => p.email.toLowerCase()));
  const arrived = () => new Set(mail.messages.map((m) => m.to).filter((to) => expected.has(to)));
  await expect.poll(() => arrived().size, { timeout: 180_000 }).toBe(expected.size);
}

/** Writable beside the server, which keeps the file in WAL. */
export function sqlite<T>(dataDir: string, work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(dataDir, "registrations.sqlite"), { timeout: 5_000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

export function confirmAll(dataDir: string) {
  sqlite(dataDir, (db) =>
    db
      .prepare("UPDATE registrations SET confirmed_at = ? WHERE confirmed_at IS NULL")
      .run(new Date().toISOString()),
  );
}

/**
 * `announce` as staff run it: the first run submits it for a manager's approval (decision 136),
 * given here, and the second queues it. Returns what the second printed.
 */
export async function announceApproved(
  dataDir: string,
  announcement: { subject: string; text: string; args?: string[] },
  env: Record<string, string> = {},
): Promise<string> {
  const textFile = path.join(dataDir, "announce.txt");
  writeFileSync(textFile, announcement.text);
  const { subject, args = [] } = announcement;
  const run = () =>
    registrationsCli({ DATA_DIR: dataDir, ...env }, [
      "announce",
      ...args,
      "--subject",
      subject,
      "--text-file",
      textFile,
    ]);
  approveSubmitted(await run(), dataDir);
  return run();
}
