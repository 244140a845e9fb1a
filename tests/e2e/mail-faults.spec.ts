import { expect, test } from "@playwright/test";

import { type MailCatcher, startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { freshPostgresSchema } from "../../scripts/lib/postgres.ts";
import { newRegistration, registrationsCli } from "../../scripts/lib/registrations.ts";
import type { ServerProcess, StartOptions } from "../../scripts/lib/server-process.ts";
import {
  announceApproved,
  confirmAll,
  confirmationsArrived,
  registerAll,
  sqlite,
  startMailSite,
} from "../support/mail-site.ts";

/**
 * Issue 21's remaining delivery faults, end to end: the production server (two of them on
 * PostgreSQL) sending through the test SMTP server while it is killed, hangs or is slow
 * for one address, and staff's CLI run beside it. Every count is of what the SMTP server
 * received. The 550 recipient tried at most twice is in mail-trust.spec.ts. What each
 * test costs is in its title.
 */

const databaseUrl = process.env.TEST_DATABASE_URL;

/** A crash may send again at most one email per connection (decision 154): these tests allow 3. */
const startSite = (mail: MailCatcher, { env, ...options }: StartOptions = {}) =>
  startMailSite(mail, { MAIL_CONNECTIONS: "3", ...env }, options);

/** Mail rows not yet delivered: none left means nothing more can be sent. */
const undelivered = (dataDir: string) =>
  sqlite(dataDir, (db) => {
    const sql = "SELECT count(*) AS n FROM outbox WHERE kind = 'mail' AND status <> 'delivered'";
    return Number((db.prepare(sql).get() as { n: number }).n);
  });

/**
 * How many copies of each message (by Message-ID, one per outbox row) each recipient
 * received, of the messages `pick` selects.
 */
function copies(mail: MailCatcher, pick: (subject: string) => boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of mail.messages) {
    if (!pick(m.parsed.subject ?? "")) continue;
    const key = `${m.parsed.messageId ?? "no Message-ID"} ${m.to}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** One message (by Message-ID) for each of `people`, each to a different address. */
function expectOneEach(counts: Map<string, number>, people: number, failures?: string) {
  expect(counts.size, failures).toBe(people);
  expect(new Set([...counts.keys()].map((key) => key.split(" ")[1])).size).toBe(people);
}

const isConfirmation = (subject: string) => subject.startsWith("Please confirm your email");

test("SIGKILL mid-announcement: after the restart, 80 recipients have one copy each, at most 3 have two [~60-120 s: the 60 s lease]", async () => {
  test.setTimeout(480_000);
  const mail = await startMailCatcher();
  let server = await startSite(mail);
  const { dataDir } = server;
  try {
    const people = Array.from({ length: 80 }, () => newRegistration("killed"));
    await registerAll([server], people);
    await confirmationsArrived(mail, people);
    confirmAll(dataDir);

    mail.delayMs = 400;
    const subject = `Opening ${Date.now()}`;
    // Submitted first; queued once a manager approved it (decision 136).
    await announceApproved(
      dataDir,
      { subject, text: "Our doors open today.\n" },
      { MAIL_PER_MINUTE: "6000" },
    );
    const announced = () => copies(mail, (s) => s === subject);
    await expect.poll(() => announced().size, { timeout: 60_000 }).toBeGreaterThanOrEqual(20);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    const atKill = announced().size;
    expect(atKill).toBeLessThan(people.length);

    server = await startSite(mail, { dataDir });
    // Messages in flight at the kill come back when their lease (60 s) runs out.
    await expect.poll(() => undelivered(dataDir), { timeout: 150_000 }).toBe(0);
    const counts = announced();
    expectOneEach(counts, people.length);
    const twice = [...counts.values()].filter((n) => n === 2).length;
    expect([...counts.values()].every((n) => n === 1 || n === 2)).toBe(true);
    expect(twice).toBeLessThanOrEqual(3);
    console.warn(`mail-faults: killed at ${atKill} of 80 announced; ${twice} second copies`);
  } finally {
    await server.stop("SIGKILL");
    await mail.close();
  }
});

test("`outbox --retry` during sending on two servers sharing PostgreSQL: no duplicate but SMTP's own [~40 s]", async () => {
  test.skip(!databaseUrl && !process.env.CI, "TEST_DATABASE_URL is not set");
  test.setTimeout(360_000);
  const schema = await freshPostgresSchema(databaseUrl ?? "");
  const mail = await startMailCatcher();
  const servers: ServerProcess[] = [];
  try {
    const env = { DATABASE_URL: schema.url };
    // One after the other: each migrates the schema on boot.
    for (let i = 0; i < 2; i++) servers.push(await startSite(mail, { env }));
    // Slow enough that several `outbox --retry` runs start while sending, even when a busy
    // machine takes seconds to start each one.
    mail.delayMs = 3_000;
    const people = Array.from({ length: 48 }, () => newRegistration("retried"));
    await registerAll(servers, people);

    let retries = 0;
    while (mail.messages.length < people.length) {
      const output = await registrationsCli({ DATABASE_URL: schema.url }, ["outbox", "--retry"]);
      expect(output).toMatch(/^Queued \d+ failed deliver/);
      if (mail.messages.length < people.length) retries += 1;
    }
    // Each run above began while some confirmations were still to arrive.
    expect(retries).toBeGreaterThanOrEqual(2);
    // Long enough for a second copy, were one on its way.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const counts = copies(mail, isConfirmation);
    // What the servers said about any send that did not go once, should one not.
    const failures = servers
      .flatMap((s) => s.output)
      .filter((line) => /"email failed"|"level":[45]0/.test(line))
      .join("\n");
    expectOneEach(counts, people.length, failures);
    // A send aborted at its limit after the server had the whole message goes again
    // (decision 154): seen here only with the CPU starved. Any other second copy is a fault.
    const timedOutSend = /"outboxId":"([^"]+)"[^\n]*"reason":"timed out after/g;
    const timedOut = new Set([...failures.matchAll(timedOutSend)].map((m) => m[1]));
    const outboxIdOf = (key: string) => /^<([^@]+)@/.exec(key)?.[1];
    expect(
      [...counts].filter(([key, n]) => n !== 1 && !(n === 2 && timedOut.has(outboxIdOf(key)))),
      failures,
    ).toEqual([]);
    console.warn(`mail-faults: ${retries} retries during sending`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await mail.close();
    await schema.drop();
  }
});

test("a 40 s SMTP hang, registrations made meanwhile: exactly one confirmation each once it recovers [~100 s: the hang and the 30-60 s backoff]", async () => {
  test.setTimeout(480_000);
  const mail = await startMailCatcher();
  const server = await startSite(mail);
  try {
    mail.hanging = true;
    const people = Array.from({ length: 6 }, () => newRegistration("hung"));
    await registerAll([server], people);
    await new Promise((resolve) => setTimeout(resolve, 40_000));
    expect(mail.messages).toHaveLength(0);
    mail.release();
    // Production timeouts and backoff: sends aborted after 20 s come back 30-60 s later.
    await expect.poll(() => undelivered(server.dataDir), { timeout: 150_000 }).toBe(0);
    const counts = copies(mail, isConfirmation);
    expectOneEach(counts, people.length);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
  } finally {
    await server.stop();
    await mail.close();
  }
});

test("one slow recipient does not hold up the rest [~20 s]", async () => {
  test.setTimeout(180_000);
  const mail = await startMailCatcher();
  const server = await startSite(mail);
  try {
    const slow = newRegistration("slow-one");
    // Under the 20 s send timeout: slow, not failed.
    mail.slowAddress(slow.email, 15_000);
    await registerAll([server], [slow]);
    await expect.poll(() => mail.attempts.length, { timeout: 10_000 }).toBe(1);
    const others = Array.from({ length: 12 }, () => newRegistration("quick"));
    const started = Date.now();
    await registerAll([server], others);
    for (const person of others) await mail.waitFor(person.email, 1, 15_000);
    const took = Date.now() - started;
    // All twelve arrived while the slow one was still being answered.
    expect(mail.to(slow.email)).toHaveLength(0);
    await mail.waitFor(slow.email, 1, 30_000);
    expect(mail.to(slow.email)).toHaveLength(1);
    console.warn(`mail-faults: 12 others delivered in ${took} ms beside a 15 s recipient`);
  } finally {
    await server.stop();
    await mail.close();
  }
});
