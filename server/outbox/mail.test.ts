import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";

import { simpleParser } from "mailparser";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";

import { rawHeader, startMailCatcher, type MailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services, type ServicesOptions } from "../services.ts";
import { loadLinkKey, unsubscribeToken } from "../shared/links.ts";

const logger = createLogger("silent");
/**
 * Short delays, so retries happen within a test, but a send's time limit of 10 s (20 s in
 * production): at load 25-40 a send past 1.5 s was retried, and a test got two copies (095).
 */
const FAST = {
  mail: {
    pollIntervalMs: 20,
    leaseMs: 12_000,
    timeoutMs: 10_000,
    backoff: { baseMs: 20, capMs: 100 },
    maxAttempts: 3,
    // This test process is the busy one (SMTP server, parser, SQLite): never give way.
    yieldAboveDelayMs: Infinity,
  },
} satisfies ServicesOptions;
const smtpEnv = (mail: MailCatcher) => ({
  SMTP_URL: mail.url,
  MAIL_FROM: "Clinic <hello@clinic.test>",
  SITE_URL: "https://clinic.test",
});
/** The mail outbox's counts, as staff see them. */
const counts = async (storage: Services) => (await storage.admin.outboxSummary()).kinds.mail.counts;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
let mail: MailCatcher;
type Backend = (typeof backends)[number];

async function fresh(backend: Backend, env: Record<string, string> = {}): Promise<TestPlace> {
  const place = await backend.fresh(env);
  cleanups.push(place.drop);
  return place;
}

/** A mail catcher, and a fresh place on `backend` whose server sends to it. */
async function setUp(backend: Backend, extra: Record<string, string> = {}) {
  mail = await startMailCatcher();
  cleanups.push(() => mail.close());
  return fresh(backend, { ...smtpEnv(mail), ...extra });
}

async function open(place: TestPlace, options: ServicesOptions = FAST, log = logger) {
  const storage = await openServices(place.env, log, options);
  cleanups.push(() => storage.close());
  return storage;
}

/** A second connection to the place's database, beside the server's. */
function sideDb(place: TestPlace) {
  const side = createDatabase(place.env, logger);
  cleanups.push(() => side.db.destroy());
  return side.db;
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`email through the outbox on ${backend.name}`, () => {
    it("sends one confirmation per registration, with both one-click headers and news promised only to one that asked, and marks it sent", async () => {
      const storage = await open(await setUp(backend));
      storage.start();
      const person = newRegistration("mail");
      const withNews = newRegistration("mail", {
        consent: { version: "2026-11-23", wantsUpdates: true },
      });
      await storage.registrations.register(person);
      await storage.registrations.register(withNews);
      const [message] = await mail.waitFor(person.email, 1, 10_000);
      const [asked] = await mail.waitFor(withNews.email, 1, 10_000);
      expect(asked?.parsed.text).toContain("occasional news before we open");
      expect(message?.parsed.text).toContain("one email when we are registered");
      expect(message?.parsed.subject).toMatch(/confirm/i);
      expect(message?.header("list-unsubscribe")).toMatch(
        /^<https:\/\/clinic\.test\/unsubscribe\?token=u\./,
      );
      expect(message?.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(message?.parsed.text).toContain(
        "https://clinic.test/register-interest/confirm?token=c.",
      );
      expect(message?.parsed.html).toContain('<html lang="en-GB">');
      await expect
        .poll(async () => (await storage.admin.findByEmail(person.email))[0]?.emails[0]?.status)
        .toBe("delivered");
      await sleep(300);
      expect(mail.to(person.email)).toHaveLength(1);
    });

    it("recovers from a hung server with exactly one email each: timed-out sends are aborted, not left queued", async () => {
      const storage = await open(await setUp(backend), {
        mail: { ...FAST.mail, maxAttempts: 50, timeoutMs: 1_500, leaseMs: 2_000 },
      });
      storage.start();
      // Hangs for more than two time limits (1.5 s here, 20 s in production), then recovers.
      mail.hanging = true;
      const people = Array.from({ length: 6 }, () => newRegistration("mail"));
      for (const person of people) await storage.registrations.register(person);
      await sleep(4_000);
      mail.release();
      for (const person of people) await mail.waitFor(person.email, 1, 15_000);
      // Long enough for any copy still queued in the transport to arrive.
      await sleep(2_000);
      for (const person of people) expect(mail.to(person.email)).toHaveLength(1);
      await expect.poll(async () => (await counts(storage)).delivered).toBe(people.length);
    });

    it("retries a server that says 'try again later', and gives up on one that refuses, visibly", async () => {
      const storage = await open(await setUp(backend));
      storage.start();
      // Twice "try again later", then accepted: the third and last attempt gets through.
      mail.refuseWith = 451;
      mail.refuseTimes = 2;
      const person = newRegistration("mail");
      await storage.registrations.register(person);
      await mail.waitFor(person.email, 1, 10_000);
      expect(mail.refused).toBe(2);
      mail.refuseWith = null;
      await expect.poll(async () => (await counts(storage)).delivered).toBe(1);

      mail.refuseWith = 550;
      mail.refuseTimes = Infinity;
      const refused = newRegistration("mail");
      await storage.registrations.register(refused);
      await expect.poll(async () => (await counts(storage)).dead, { timeout: 10_000 }).toBe(1);
      const summary = await storage.admin.outboxSummary();
      // A permanent refusal is not retried: one attempt, kept as its code alone.
      expect(summary.dead).toEqual([
        expect.objectContaining({ kind: "mail", topic: "confirmation", attempts: 1 }),
      ]);
      expect(summary.dead[0]?.lastError).toBe("SMTP 550");
      expect(mail.refused).toBe(3);
      expect(mail.to(refused.email)).toHaveLength(0);
      // Staff retry once the cause is fixed: that lifts the address's suppression.
      mail.refuseWith = null;
      await storage.admin.retryOutbox();
      await mail.waitFor(refused.email, 1, 10_000);
    });

    it("claims a slot's worth ahead, and a stopping server gives those back due, their attempt uncounted", async () => {
      const place = await setUp(backend, { MAIL_CONNECTIONS: "2" });
      // Sends hang until released, however slow the machine: no time limit or lease runs out.
      const storage = await open(place, {
        mail: { ...FAST.mail, timeoutMs: 30_000, leaseMs: 60_000 },
      });
      const side = sideDb(place);
      mail.hanging = true;
      for (let i = 0; i < 8; i++) await storage.registrations.register(newRegistration("ahead"));
      storage.start();
      const rows = () =>
        side
          .selectFrom("outbox")
          .select(["attempts", "next_attempt_at"])
          .where("kind", "=", "mail")
          .execute();
      const claimed = async () => (await rows()).filter((r) => r.attempts > 0).length;
      // Two with the hung server, two ready for the next free connection.
      await expect.poll(claimed, { timeout: 10_000 }).toBe(4);
      await sleep(300);
      expect(await claimed()).toBe(4);
      const stopping = storage.close();
      mail.release();
      await stopping;
      // The two sent were recorded; the two only claimed are due again as if never claimed.
      const after = await rows();
      expect(after.filter((r) => r.attempts > 0)).toHaveLength(2);
      const now = new Date().toISOString();
      expect(after.filter((r) => r.attempts === 0 && r.next_attempt_at <= now)).toHaveLength(4 + 2);
    });

    it("sends nothing to an address that unsubscribed before its email went, and picks up after a restart", async () => {
      const place = await setUp(backend);
      // Registered while no worker runs (a server that stopped before sending).
      const first = await open(place);
      const kept = newRegistration("mail");
      const gone = newRegistration("mail");
      const { registration } = await first.registrations.register(gone);
      await first.registrations.register(kept);
      const key = await loadLinkKey(sideDb(place));
      // One of them unsubscribes (from an earlier email) before anything is sent.
      await first.registrations.unsubscribe(unsubscribeToken(key, registration.id));
      await first.close();

      const second = await open(place);
      second.start();
      await mail.waitFor(kept.email, 1, 10_000);
      await sleep(300);
      expect(mail.to(gone.email)).toHaveLength(0);
    });
  });
}

it("email without SMTP_URL: writes each message as an .eml file under DATA_DIR/mail, readable only by the server", async () => {
  const place = await fresh(backends[0]!);
  const storage = await open(place);
  storage.start();
  const person = newRegistration("mail");
  await storage.registrations.register(person);
  // Delivered once the file is written whole: reading it as soon as it appears races the write.
  await expect.poll(async () => (await counts(storage)).delivered, { timeout: 15_000 }).toBe(1);
  const dir = path.join(place.env.DATA_DIR, "mail");
  const [file, ...more] = readdirSync(dir);
  expect(more).toEqual([]);
  expect(file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f-]{36}\.eml$/);
  expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const parsed = await simpleParser(readFileSync(path.join(dir, file!)));
  expect(parsed.from?.text).toContain("no-reply@localhost");
  expect(rawHeader(parsed, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  expect(parsed.text).toContain("http://localhost:3000/register-interest/confirm?token=");

  // The purge takes the registration's .eml file with it, as erase does.
  await sleep(5);
  expect((await storage.admin.purgeOlderThan({ amount: 0, unit: "days" })).deleted).toBe(1);
  expect(readdirSync(dir)).toEqual([]);
});

describe("visitors first", () => {
  it.each([
    [
      "sends nothing while visitors' requests meet a late event loop, and goes on once it runs on time",
      true,
    ],
    ["sends while the event loop runs late but no request is waiting", false],
  ])("%s", async (_name, visitors) => {
    const site = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => site.close());
    const { port } = site.address() as AddressInfo;
    const place = await setUp(backends[0]!);
    const storage = await open(place, {
      mail: { ...FAST.mail, yieldAboveDelayMs: 50, maxYieldMs: 60_000 },
    });
    const visits: Array<Promise<unknown>> = [];
    cleanups.push(() => Promise.allSettled(visits));
    /** As a server swamped by requests: the loop held in 150 ms slices, each timer late. */
    const busy = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (visitors) visits.push(fetch(`http://127.0.0.1:${port}/`).then((r) => r.text()));
        const slice = Date.now() + 150;
        while (Date.now() < slice) {
          // Hold the loop.
        }
        await sleep(0);
      }
    };
    storage.start();
    // Long enough for a full second of late timers to be measured.
    await busy(1_300);
    const person = newRegistration("visitors-first");
    await storage.registrations.register(person);
    await busy(1_500);
    // Read before the loop turns again: a worker that did not give way has claimed the row.
    const side = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    const claimed = side.prepare("select attempts from outbox where kind = 'mail'").all();
    side.close();
    expect(claimed).toEqual([{ attempts: visitors ? 0 : 1 }]);
    await mail.waitFor(person.email, 1, 15_000);
  });
});

it("a mail server that asks us to slow down: pauses the whole channel, not only the refused emails, and says so once", async () => {
  const lines: Array<{ time: number; msg: string; level: number }> = [];
  const log = pino(
    { level: "info" },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  const pauseMs = 1_500;
  const mailOptions = { concurrency: 4, backoff: { baseMs: pauseMs, capMs: pauseMs, floor: 1 } };
  const storage = await open(
    await setUp(backends[0]!),
    { mail: { ...FAST.mail, ...mailOptions } },
    log,
  );
  // Three at once, all answered "451 try again later".
  const refused = Array.from({ length: 3 }, () => newRegistration("slow-down"));
  for (const person of refused) await storage.registrations.register(person);
  mail.refuseWith = 451;
  mail.refuseTimes = 3;
  storage.start();
  await expect.poll(() => mail.refused, { timeout: 10_000 }).toBe(3);
  // Once the worker has read an answer and paused (not merely once the server answered,
  // when a fourth send could still start), a confirmation queued now waits for it too.
  const slowDowns = () => lines.filter((l) => /asked us to slow down/.test(l.msg));
  await expect.poll(() => slowDowns().length > 0, { timeout: 10_000 }).toBe(true);
  const later = newRegistration("slow-down");
  await storage.registrations.register(later);
  for (const person of [...refused, later]) await mail.waitFor(person.email, 1, 15_000);

  expect(slowDowns()).toHaveLength(1);
  expect(slowDowns()[0]?.msg).toBe(
    "the mail server asked us to slow down: pausing, then sending slower",
  );
  // The mail server holds each message a moment before the worker hears back and logs it.
  const sent = () => lines.filter((l) => l.msg === "email sent");
  await expect.poll(() => sent().length, { timeout: 10_000 }).toBe(4);
  for (const line of sent())
    expect(line.time).toBeGreaterThanOrEqual(slowDowns()[0]!.time + pauseMs);
});
