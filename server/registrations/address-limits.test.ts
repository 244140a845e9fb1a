import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";

import {
  type AddressHistory,
  CONFIRMATION_LIMITS,
  isUnsubscribed,
  mayQueueConfirmation,
} from "./address-limits.ts";
import { confirmToken, loadLinkKey, unsubscribeToken } from "./links.ts";
import type { NewRegistration } from "../../contract/registrations.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { openStorage, type StorageOptions } from "../compose.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";

const logger = createLogger("silent");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const start = new Date("2026-11-25T09:00:00.000Z");
const at = (ms: number) => new Date(start.getTime() + ms).toISOString();

describe("mayQueueConfirmation", () => {
  const history = (over: Partial<AddressHistory> = {}): AddressHistory => ({
    lastUnsubscribedAt: null,
    lastConfirmedAt: null,
    confirmations: [],
    ...over,
  });

  it("allows the first, and none while one waits or within the gap", () => {
    expect(mayQueueConfirmation(history(), start)).toBe(true);
    const waiting = history({ confirmations: [{ createdAt: at(-5 * HOUR), status: "pending" }] });
    expect(mayQueueConfirmation(waiting, start)).toBe(false);
    const recent = history({
      confirmations: [{ createdAt: at(-59 * MINUTE), status: "delivered" }],
    });
    expect(mayQueueConfirmation(recent, start)).toBe(false);
    const older = history({
      confirmations: [{ createdAt: at(-61 * MINUTE), status: "delivered" }],
    });
    expect(mayQueueConfirmation(older, start)).toBe(true);
  });

  it(`allows at most ${CONFIRMATION_LIMITS.perDay} in 24 hours`, () => {
    const sent = (hoursAgo: number) => ({
      createdAt: at(-hoursAgo * HOUR),
      status: "delivered" as const,
    });
    const full = Array.from({ length: CONFIRMATION_LIMITS.perDay }, (_, i) => sent(2 + i));
    expect(mayQueueConfirmation(history({ confirmations: full }), start)).toBe(false);
    const aged = full.map((c, i) => (i === 0 ? sent(25) : c));
    expect(mayQueueConfirmation(history({ confirmations: aged }), start)).toBe(true);
  });

  it("mails no unsubscribed address until a registration of it is confirmed after the unsubscribe", () => {
    const off = history({ lastUnsubscribedAt: at(-HOUR * 48), lastConfirmedAt: at(-HOUR * 72) });
    expect(isUnsubscribed(off)).toBe(true);
    expect(mayQueueConfirmation(off, start)).toBe(false);
    const back = { ...off, lastConfirmedAt: at(-HOUR * 24) };
    expect(isUnsubscribed(back)).toBe(false);
    expect(mayQueueConfirmation(back, start)).toBe(true);
  });
});

let counter = 0;
function registration(email: string, over: Partial<NewRegistration> = {}): NewRegistration {
  counter += 1;
  return {
    name: `Person ${counter}`,
    email,
    phone: null,
    message: null,
    clientTimestamp: null,
    idempotencyKey: `limits-${counter}-${Math.random()}`,
    consent: { version: "2026-11-23", wantsUpdates: false },
    ...over,
  };
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`per-address limits on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    let clock = start;

    async function setUp(options: StorageOptions = {}) {
      const p = await backend.fresh();
      cleanups.push(p.drop);
      const storage = await openStorage(p.env, logger, { now: () => clock, ...options });
      cleanups.push(() => storage.close());
      const side = createDatabase(p.env, logger);
      cleanups.push(() => side.db.destroy());
      const key = await loadLinkKey(side.db);
      /** Confirmation emails queued, per lower-cased address. */
      const confirmations = async (email: string) => {
        const { rows } = await sql<{ n: number | string }>`
          select count(*) as n from outbox o join registrations r on r.id = o.registration_id
          where o.topic = 'confirmation' and lower(r.email) = ${email.toLowerCase()}`.execute(
          side.db,
        );
        return Number(rows[0]?.n);
      };
      /** The mail worker is not started: mark what is queued as sent. */
      const markSent = () => sql`update outbox set status = 'delivered'`.execute(side.db);
      return { storage, key, confirmations, markSent };
    }

    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
      clock = start;
    });

    it("stores 30 registrations of one address arriving together and queues one confirmation", async () => {
      const { storage, confirmations } = await setUp();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          storage.registrations.register(
            registration(i % 2 ? "Victim@Example.com" : "victim@example.com"),
          ),
        ),
      );
      expect(results.every((r) => r.kind === "created")).toBe(true);
      expect(await storage.admin.count()).toBe(30);
      expect(await confirmations("victim@example.com")).toBe(1);
    });

    it("holds when each registration commits on its own, several at once", async () => {
      // One registration per transaction, eight transactions at a time on PostgreSQL:
      // only the address lock keeps two of them from each queueing one.
      const { storage, confirmations } = await setUp({ maxBatch: 1, writeConcurrency: 8 });
      await Promise.all(
        Array.from({ length: 60 }, () =>
          storage.registrations.register(registration("target@example.com")),
        ),
      );
      expect(await confirmations("target@example.com")).toBe(1);
    });

    it(`re-sends after ${CONFIRMATION_LIMITS.minGapMinutes} minutes once the last went, at most ${CONFIRMATION_LIMITS.perDay} a day`, async () => {
      const { storage, confirmations, markSent } = await setUp();
      const again = () => storage.registrations.register(registration("sam@example.com"));
      await again();
      clock = new Date(start.getTime() + 2 * HOUR);
      await again(); // the first is still waiting to go
      expect(await confirmations("sam@example.com")).toBe(1);
      await markSent();
      clock = new Date(start.getTime() + 2 * HOUR + 30 * MINUTE);
      await again(); // sent, and more than the gap since it was queued
      expect(await confirmations("sam@example.com")).toBe(2);
      await markSent();
      clock = new Date(start.getTime() + 3 * HOUR);
      await again(); // within the gap of the second
      expect(await confirmations("sam@example.com")).toBe(2);
      clock = new Date(start.getTime() + 4 * HOUR);
      await again();
      await markSent();
      clock = new Date(start.getTime() + 6 * HOUR);
      await again(); // the fourth in 24 hours
      expect(await confirmations("sam@example.com")).toBe(3);
      clock = new Date(start.getTime() + 25 * HOUR);
      await again(); // the first has aged out of the day
      expect(await confirmations("sam@example.com")).toBe(4);
      // Other addresses are not held back by this one.
      await storage.registrations.register(registration("kim@example.com"));
      expect(await confirmations("kim@example.com")).toBe(1);
    });

    it("mails an unsubscribed address nothing until that person joins again from the unsubscribe link", async () => {
      const { storage, key, confirmations, markSent } = await setUp();
      const first = await storage.registrations.register(registration("alex@example.com"));
      await markSent();
      const stop = unsubscribeToken(key, first.registration.id);
      expect((await storage.registrations.unsubscribe(stop)).kind).toBe("unsubscribed");

      clock = new Date(start.getTime() + 3 * HOUR);
      const again = await storage.registrations.register(registration("ALEX@example.com"));
      expect(again.kind).toBe("created"); // stored and acknowledged as usual...
      expect(await confirmations("alex@example.com")).toBe(1); // ...but nothing mailed

      clock = new Date(start.getTime() + 4 * HOUR);
      expect(await storage.registrations.rejoin(stop)).toEqual({ kind: "rejoined" });
      expect(await storage.registrations.rejoin(stop)).toEqual({ kind: "rejoined" });
      const shown = await storage.admin.findByEmail("alex@example.com");
      // The newest registration is confirmed and on the list; the first keeps its record.
      expect(shown.map((r) => [r.confirmedAt, r.unsubscribedAt])).toEqual([
        [null, start.toISOString()],
        [at(4 * HOUR), null],
      ]);
      // On the list again, a new registration may be confirmed by email as usual.
      clock = new Date(start.getTime() + 6 * HOUR);
      await storage.registrations.register(registration("alex@example.com"));
      expect(await confirmations("alex@example.com")).toBe(2);
    });

    it("looking at a confirm link changes nothing; the press confirms, and brings back an unsubscribed registration", async () => {
      const { storage, key } = await setUp();
      const { registration: r } = await storage.registrations.register(
        registration("lee@example.com"),
      );
      const token = confirmToken(key, r.id, start);
      for (let i = 0; i < 3; i++) {
        expect(await storage.registrations.checkConfirm(token)).toEqual({
          kind: "valid",
          alreadyConfirmed: false,
        });
      }
      expect((await storage.admin.findByEmail("lee@example.com"))[0]?.confirmedAt).toBeNull();
      expect(await storage.registrations.checkConfirm("forged")).toEqual({ kind: "invalid" });

      expect(await storage.registrations.unsubscribe(unsubscribeToken(key, r.id))).toMatchObject({
        kind: "unsubscribed",
      });
      clock = new Date(start.getTime() + HOUR);
      expect(await storage.registrations.confirm(token)).toEqual({
        kind: "confirmed",
        firstTime: true,
      });
      expect(await storage.registrations.checkConfirm(token)).toEqual({
        kind: "valid",
        alreadyConfirmed: true,
      });
      const [shown] = await storage.admin.findByEmail("lee@example.com");
      expect([shown?.confirmedAt, shown?.unsubscribedAt]).toEqual([at(HOUR), null]);
    });
  });
}
