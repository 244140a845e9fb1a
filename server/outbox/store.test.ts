import { randomUUID } from "node:crypto";

import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";

import { claimDue, handOff, suppress } from "./store.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { openServices, type Services } from "../services.ts";
import { emailHasher } from "../shared/address.ts";

const logger = pino({ level: "silent" });

/**
 * The handoff gate (docs/decisions/095): the rule that decides, at the moment of handoff,
 * whether an email may go. The worker is not started: the gate is called as it calls it.
 */
for (const backend of backends) {
  describe.runIf(backend.enabled)(`the handoff gate on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setUp() {
      const place = await backend.fresh({});
      cleanups.push(place.drop);
      const storage: Services = await openServices(place.env, logger);
      cleanups.push(() => storage.close());
      const { db } = createDatabase(place.env, logger);
      cleanups.push(() => db.destroy());
      const hash = await emailHasher(db);
      /**
       * Registers and returns an email row of the registration: its confirmation, or, where
       * the per-address limits queued none (docs/decisions/102), a row queued here as an
       * announcement queued earlier would be, so the gate alone decides.
       */
      async function register(email: string) {
        const result = await storage.registrations.register(newRegistration("gate", { email }));
        if (result.kind !== "created") throw new Error(result.kind);
        const registrationId = result.registration.id;
        const queued = await db
          .selectFrom("outbox")
          .select(["id", "attempts"])
          .where("registration_id", "=", registrationId)
          .where("kind", "=", "mail")
          .executeTakeFirst();
        if (queued) return { outboxId: queued.id, attempt: queued.attempts, registrationId, email };
        const [now, outboxId] = [new Date().toISOString(), randomUUID()];
        await db
          .insertInto("outbox")
          .values({
            id: outboxId,
            registration_id: registrationId,
            status: "pending",
            attempts: 0,
            next_attempt_at: now,
            created_at: now,
            kind: "mail",
            topic: "announcement",
            // last_error, delivered_at, announcement_id, dedupe_key, sending_until: NULL.
          })
          .execute();
        return { outboxId, attempt: 0, registrationId, email };
      }
      const gate = (job: Awaited<ReturnType<typeof register>>) =>
        handOff(db, storage.dialect, job, new Date(Date.now() + 20_000), async (e) => hash(e));
      const set = (id: string, values: { confirmed_at?: string; unsubscribed_at?: string }) =>
        db.updateTable("registrations").set(values).where("id", "=", id).execute();
      const rows = (outboxId: string) =>
        db.selectFrom("outbox").selectAll().where("id", "=", outboxId).execute();
      return { db, hash, register, gate, set, rows, dialect: storage.dialect };
    }

    it("lets a message go, marking it in flight, and refuses the same claim twice", async () => {
      const { register, gate, rows } = await setUp();
      const job = await register("gate-ok@example.com");
      expect(await gate(job)).toBeNull();
      const [row] = await rows(job.outboxId);
      expect(row!.sending_until).not.toBeNull();
      expect(await gate({ ...job, attempt: job.attempt + 1 })).toBe("taken");
    });

    it("refuses a suppressed address in any letter case, and deletes the row", async () => {
      const { db, hash, register, gate, rows } = await setUp();
      await suppress(db, hash("Bounce@Example.com"), "SMTP 550 5.1.1", new Date());
      const job = await register("bounce@example.com");
      expect(await gate(job)).toBe("suppressed");
      expect(await rows(job.outboxId)).toEqual([]);
      // Another address is not affected.
      expect(await gate(await register("fine@example.com"))).toBeNull();
    });

    it("refuses every mail to an address that unsubscribed, until a registration of it is confirmed after", async () => {
      const { register, gate, set } = await setUp();
      const first = await register("Quit@example.com");
      await set(first.registrationId, {
        confirmed_at: "2026-11-01T10:00:00.000Z",
        unsubscribed_at: "2026-11-02T10:00:00.000Z",
      });
      // New registrations of the same address: not yet confirmed, confirmed before the
      // unsubscribe (which does not count), and confirmed after it (mail may go again).
      for (const [email, confirmed_at, refusal] of [
        ["quit@example.com", undefined, "unsubscribed"],
        ["quit@EXAMPLE.com", "2026-11-01T12:00:00.000Z", "unsubscribed"],
        ["quit@example.com", "2026-11-03T10:00:00.000Z", null],
      ] as const) {
        const job = await register(email);
        if (confirmed_at) await set(job.registrationId, { confirmed_at });
        expect(await gate(job), confirmed_at ?? "unconfirmed").toBe(refusal);
      }
    });

    it("claims no more due rows than asked", async () => {
      const { db, dialect, register } = await setUp();
      for (let i = 0; i < 8; i++) await register(`claim-${i}@example.com`);
      const claim = () =>
        claimDue(db, dialect, { kind: "mail", now: new Date(), leaseMs: 60_000, limit: 3 });
      expect(await claim()).toHaveLength(3);
      expect(await claim()).toHaveLength(3);
      expect(await claim()).toHaveLength(2);
    });

    it("refuses mail of an erased registration", async () => {
      const { register, gate } = await setUp();
      const job = await register("erase-me@example.com");
      expect(await gate({ ...job, registrationId: "no-such-registration" })).toBe("erased");
    });
  });
}
