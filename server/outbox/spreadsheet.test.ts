import { sql } from "kysely";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";

import type { OutboxWorkerOptions } from "./worker.ts";
import type { NewRegistration, StoredRegistration } from "../../contract/registrations.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import {
  type FakeSpreadsheet,
  startFakeSpreadsheet,
} from "../../tests/support/fake-spreadsheet.ts";
import { backends, postgresBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createDatabase, migrate } from "../db/database.ts";
import { openServices, type Services } from "../services.ts";

/** Delays shrunk so a test sees many retries in well under a second. */
const FAST: Partial<OutboxWorkerOptions> = {
  pollIntervalMs: 20,
  timeoutMs: 200,
  leaseMs: 2_000,
  concurrency: 5,
  maxAttempts: 40,
  backoff: { baseMs: 10, capMs: 80 },
};
const WAIT = { timeout: 15_000, interval: 25 };

let counter = 0;
/** Phones with a leading + and without, messages and none: every shape a row can take. */
function varied(): NewRegistration {
  counter += 1;
  return newRegistration("spreadsheet", {
    phone: counter % 2 ? "+44 7700 900" + String(100 + counter) : null,
    message: counter % 3 ? null : "Please call after six",
    clientTimestamp: `2026-05-0${(counter % 9) + 1}T08:00:00.000Z`,
  });
}

/** The spreadsheet deliveries' counts, as staff see them. */
const counts = async (storage: Services) =>
  (await storage.admin.outboxSummary()).kinds.spreadsheet.counts;

function captureLogs() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fake spreadsheet answering `answer`, listening unless told not to, and a place sending to it. */
async function setUp(
  backend: (typeof backends)[number],
  answer?: FakeSpreadsheet["answer"],
  { listening = true } = {},
) {
  const fake = await startFakeSpreadsheet({ listening: false });
  cleanups.push(() => fake.close());
  if (answer) fake.answer = answer;
  if (listening) await fake.listen();
  const p = await backend.fresh(fake.env);
  cleanups.push(p.drop);
  return { fake, p };
}

async function open(
  p: TestPlace,
  options: Partial<OutboxWorkerOptions> = {},
  logger = captureLogs().logger,
): Promise<Services> {
  const storage = await openServices(p.env, logger, { spreadsheet: { ...FAST, ...options } });
  cleanups.push(() => storage.close());
  return storage;
}

/** A second connection to the place's database, beside the server's. */
function sideDb(p: TestPlace) {
  const side = createDatabase(p.env, captureLogs().logger);
  cleanups.push(() => side.db.destroy());
  return side;
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`the spreadsheet channel on ${backend.name}`, () => {
    it("delivers every registration to a spreadsheet that refuses, fails and times out before it recovers", async () => {
      const { fake, p } = await setUp(backend, undefined, { listening: false });
      const storage = await open(p);
      const stored: StoredRegistration[] = [];
      for (let i = 0; i < 8; i++)
        stored.push((await storage.registrations.register(varied())).registration);
      storage.start();

      // Nothing listens yet: every attempt is refused and rescheduled.
      const attempts = async () =>
        (await storage.admin.findByEmail(stored[0]!.email))[0]?.delivery?.attempts;
      await expect.poll(attempts, WAIT).toBeGreaterThanOrEqual(2);
      expect(fake.requests).toHaveLength(0);

      // Then it answers 500, hangs up, and answers too slowly, before it recovers.
      const script = ["fail", "fail", "fail", "hang-up", "slow", "slow", "fail"] as const;
      fake.answer = (index) => script[index] ?? "ok";
      await fake.listen();
      // One more arrives while deliveries are retrying.
      stored.push((await storage.registrations.register(varied())).registration);

      await expect.poll(() => counts(storage), WAIT).toEqual({ pending: 0, delivered: 9, dead: 0 });
      expect(fake.requests.length).toBeGreaterThan(9);
      expect([...fake.rows.keys()].sort()).toEqual(stored.map((r) => r.id).sort());
      for (const r of stored) {
        expect(fake.rows.get(r.id)).toEqual({
          id: r.id,
          name: r.name,
          email: r.email,
          // The export's formula rule: a leading + would start a formula in a sheet.
          phone: r.phone && `'${r.phone}`,
          message: r.message,
          timestamp: r.clientTimestamp,
        });
      }
      const contentTypes = new Set(fake.requests.map((d) => d.contentType));
      expect(contentTypes).toEqual(new Set(["application/json"]));
      // Every request carried a signature the shipped script accepts.
      expect(fake.refused).toEqual([]);
      const [shown] = await storage.admin.findByEmail(stored[0]!.email);
      expect(shown?.delivery?.status).toBe("delivered");
    });

    it("gives up after the last attempt, keeps the row visible as dead, and delivers it on retry", async () => {
      const { fake, p } = await setUp(backend, () => "fail");
      const { logger, lines } = captureLogs();
      const storage = await open(p, { maxAttempts: 3 }, logger);
      const { registration } = await storage.registrations.register(varied());
      storage.start();

      await expect.poll(async () => (await counts(storage)).dead, WAIT).toBe(1);
      expect(fake.requests).toHaveLength(3);
      const summary = await storage.admin.outboxSummary();
      expect(summary.dead).toEqual([
        {
          kind: "spreadsheet",
          topic: "registration",
          registrationId: registration.id,
          attempts: 3,
          lastError: "HTTP 500",
          createdAt: registration.receivedAt,
        },
      ]);
      // Dead stays dead: no more requests without an operator.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(fake.requests).toHaveLength(3);

      fake.answer = () => "ok";
      expect(await storage.admin.retryOutbox()).toEqual({ revived: 1, hurried: 0 });
      await expect.poll(() => counts(storage), WAIT).toEqual({ pending: 0, delivered: 1, dead: 0 });
      expect([...fake.rows.keys()]).toEqual([registration.id]);

      // The log names the registration and the failure, never the person.
      const log = lines.join("");
      expect(log).toContain(registration.id);
      expect(log).toContain("HTTP 500");
      for (const personal of [registration.name, registration.email, registration.clientTimestamp!])
        expect(log).not.toContain(personal);
    });

    it("retries a delivery the spreadsheet refuses, in a 401 or in a 200, until it is signed right", async () => {
      const { fake, p } = await setUp(backend, (index) => (index < 2 ? "refuse-in-200" : "ok"));
      // A server with the wrong secret: the fake refuses every delivery.
      const wrong = await open({ ...p, env: { ...p.env, SPREADSHEET_SECRET: "x".repeat(40) } });
      const { registration } = await wrong.registrations.register(varied());
      wrong.start();
      await expect.poll(() => fake.refused.length, WAIT).toBeGreaterThanOrEqual(2);
      const [refused] = await wrong.admin.findByEmail(registration.email);
      expect(refused?.delivery?.status).toBe("pending");
      expect(fake.rows.size).toBe(0);
      await wrong.close();

      // The right secret: a refusal Apps Script-style (HTTP 200, {"ok":false}) is a failure too.
      const right = await open(p);
      right.start();
      await expect.poll(async () => (await counts(right)).delivered, WAIT).toBe(1);
      expect(fake.requests.length).toBeGreaterThanOrEqual(3);
      expect([...fake.rows.keys()]).toEqual([registration.id]);
    });

    it("after a restart, delivers a row queued before it, under its kind before migration 008, 'sheet', once the migration has run", async () => {
      const { fake, p } = await setUp(backend);
      // Registered while no worker runs, as on a server that went down first.
      const before = await open(p);
      const { registration } = await before.registrations.register(varied());
      await before.close();
      // The database as the version before 008 left it: the row's kind is 'sheet' again.
      const side = sideDb(p);
      await migrate(side.db, side.dialect, "007-address-lock");
      const { rows } = await sql<{ kind: string }>`select kind from outbox`.execute(side.db);
      expect(rows.map((r) => r.kind).sort()).toEqual(["mail", "sheet"]);

      const after = await open(p);
      after.start();
      await expect.poll(() => fake.rows.has(registration.id), WAIT).toBe(true);
      await expect.poll(async () => (await counts(after)).delivered, WAIT).toBe(1);
    });

    it("looks less and less often while the outbox cannot be read, and delivers once it can", async () => {
      const { fake, p } = await setUp(backend);
      const { logger, lines } = captureLogs();
      const storage = await open(p, { failedPollCapMs: 160 }, logger);
      const { registration } = await storage.registrations.register(varied());
      // The outbox goes missing under the worker (as a locked, full or lost database fails it).
      const side = sideDb(p);
      await sql`alter table outbox rename to outbox_away`.execute(side.db);
      storage.start();
      await new Promise((resolve) => setTimeout(resolve, 1_200));

      const waits = lines
        .map((line) => JSON.parse(line) as { msg?: string; kind?: string; retryInMs?: number })
        .filter((entry) => entry.msg === "outbox poll failed" && entry.kind === "spreadsheet")
        .map((entry) => entry.retryInMs);
      // Polling every 20 ms would have failed about 60 times; doubling waits, a handful.
      expect(waits.slice(0, 4)).toEqual([40, 80, 160, 160]);
      expect(waits.length).toBeLessThanOrEqual(10);

      await sql`alter table outbox_away rename to outbox`.execute(side.db);
      await expect.poll(() => fake.rows.has(registration.id), WAIT).toBe(true);
    });
  });
}

// Several app servers share one database only on PostgreSQL: SQLite is the single-server setup.
it.runIf(postgresBackend.enabled)(
  "the spreadsheet channel from several app servers on postgres shares the work without sending anything twice",
  async () => {
    const { fake, p } = await setUp(postgresBackend);
    // A generous timeout, so that a slow test machine cannot cause a (legitimate) resend.
    const servers: Services[] = [];
    for (let i = 0; i < 3; i++) servers.push(await open(p, { timeoutMs: 5_000, leaseMs: 20_000 }));
    const stored = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        servers[i % servers.length]!.registrations.register(varied()),
      ),
    );
    for (const server of servers) server.start();

    await expect.poll(async () => (await counts(servers[0]!)).delivered, WAIT).toBe(30);
    expect(fake.requests).toHaveLength(30);
    expect([...fake.rows.keys()].sort()).toEqual(stored.map((r) => r.registration.id).sort());
  },
);
