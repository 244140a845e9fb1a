import { afterEach, describe, expect, it } from "vitest";

import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";
import { confirmToken, loadLinkKey, unsubscribeToken } from "../shared/links.ts";

const logger = createLogger("silent");
const SPREADSHEET = {
  SPREADSHEET_URL: "http://127.0.0.1:9/never-called",
  SPREADSHEET_SECRET: "s".repeat(32),
};
const DAY = 24 * 60 * 60 * 1000;

for (const backend of backends) {
  describe.runIf(backend.enabled)(`confirm and unsubscribe links on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    const start = new Date("2026-11-23T12:00:00.000Z");
    let clock = start;

    async function setUp(extra?: Record<string, string>) {
      const p: TestPlace = await backend.fresh(extra);
      cleanups.push(p.drop);
      const storage: Services = await openServices(p.env, logger, { now: () => clock });
      cleanups.push(() => storage.close());
      const side = createDatabase(p.env, logger);
      cleanups.push(() => side.db.destroy());
      const key = await loadLinkKey(side.db);
      return { storage, key, db: side.db };
    }

    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
      clock = start;
    });

    it("confirms once with a genuine link; a second click is harmless; the spreadsheet hears of it once", async () => {
      const { storage, key } = await setUp(SPREADSHEET);
      const { registration } = await storage.registrations.register(
        newRegistration("subscription"),
      );
      const token = confirmToken(key, registration.id, new Date(registration.receivedAt));

      clock = new Date(start.getTime() + 3 * DAY);
      expect(await storage.registrations.confirm(token)).toEqual({
        kind: "confirmed",
        firstTime: true,
      });
      clock = new Date(start.getTime() + 4 * DAY);
      expect(await storage.registrations.confirm(token)).toEqual({
        kind: "confirmed",
        firstTime: false,
      });
      const [shown] = await storage.admin.findByEmail(registration.email);
      expect(shown?.confirmedAt).toBe(new Date(start.getTime() + 3 * DAY).toISOString());
      // The registration itself, then one status delivery.
      expect((await storage.admin.outboxSummary()).kinds.spreadsheet.counts.pending).toBe(2);
      // Long after the link expired, it still says "confirmed", never "expired".
      clock = new Date(start.getTime() + 40 * DAY);
      expect(await storage.registrations.confirm(token)).toEqual({
        kind: "confirmed",
        firstTime: false,
      });
    });

    it("refuses forged, altered and expired links and changes nothing", async () => {
      const { storage, key } = await setUp();
      const { registration } = await storage.registrations.register(
        newRegistration("subscription"),
      );
      const token = confirmToken(key, registration.id, start);
      const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
      const forged = confirmToken("f".repeat(64), registration.id, start);
      const otherId = confirmToken(key, "00000000-0000-4000-8000-000000000000", start);
      for (const bad of [altered, forged, "", "nonsense", unsubscribeToken(key, registration.id)]) {
        expect(await storage.registrations.confirm(bad)).toEqual({ kind: "invalid" });
      }
      expect(await storage.registrations.confirm(otherId)).toEqual({ kind: "gone" });
      clock = new Date(start.getTime() + 7 * DAY);
      expect(await storage.registrations.confirm(token)).toEqual({ kind: "expired" });
      const [shown] = await storage.admin.findByEmail(registration.email);
      expect(shown?.confirmedAt).toBeNull();
    });

    it("unsubscribes every registration of the address, drops its queued mail, and is safe to repeat", async () => {
      const { storage, key } = await setUp(SPREADSHEET);
      const first = await storage.registrations.register(
        newRegistration("subscription", { email: "Alex@Example.com" }),
      );
      await storage.registrations.register(
        newRegistration("subscription", { email: "alex@example.com" }),
      );
      const other = await storage.registrations.register(newRegistration("subscription"));
      const token = unsubscribeToken(key, first.registration.id);

      expect(await storage.registrations.checkUnsubscribe(token)).toEqual({
        kind: "valid",
        alreadyUnsubscribed: false,
      });
      expect(await storage.registrations.unsubscribe(token)).toEqual({
        kind: "unsubscribed",
        firstTime: true,
      });
      expect(await storage.registrations.unsubscribe(token)).toEqual({
        kind: "unsubscribed",
        firstTime: false,
      });
      expect(await storage.registrations.checkUnsubscribe(token)).toEqual({
        kind: "valid",
        alreadyUnsubscribed: true,
      });
      const shown = await storage.admin.findByEmail("alex@example.com");
      expect(shown.map((r) => r.unsubscribedAt)).toEqual([
        start.toISOString(),
        start.toISOString(),
      ]);
      expect(shown.flatMap((r) => r.emails)).toEqual([]);
      const [untouched] = await storage.admin.findByEmail(other.registration.email);
      expect(untouched?.unsubscribedAt).toBeNull();
      expect(untouched?.emails).toHaveLength(1);
      const summary = await storage.admin.outboxSummary();
      // Three registrations, two status deliveries (one per unsubscribed registration).
      expect(summary.kinds.spreadsheet.counts.pending).toBe(5);
      expect(summary.kinds.mail.counts.pending).toBe(1);

      for (const bad of ["", token.slice(0, -2), confirmToken(key, first.registration.id, start)]) {
        expect(await storage.registrations.checkUnsubscribe(bad)).toEqual({ kind: "invalid" });
        expect(await storage.registrations.unsubscribe(bad)).toEqual({ kind: "invalid" });
      }
      await storage.admin.eraseByEmail("alex@example.com");
      expect(await storage.registrations.unsubscribe(token)).toEqual({ kind: "gone" });
    });

    it("purges unconfirmed registrations after 30 days, keeping confirmed ones and older rows without consent", async () => {
      const { storage, key, db } = await setUp();
      // Stored before consent was recorded (migration 004): never sent a confirmation.
      await db
        .insertInto("registrations")
        .values({
          id: "11111111-1111-4111-8111-111111111111",
          name: "Before consent",
          email: "early@example.com",
          phone: null,
          message: null,
          client_timestamp: null,
          received_at: "2026-01-01T00:00:00.000Z",
          idempotency_key: "early",
          consent_version: null,
          consent_at: null,
          confirmed_at: null,
          unsubscribed_at: null,
        })
        .execute();
      const stale = await storage.registrations.register(
        newRegistration("subscription", { name: "Stale" }),
      );
      const confirmed = await storage.registrations.register(
        newRegistration("subscription", { name: "Kept" }),
      );
      await storage.registrations.confirm(confirmToken(key, confirmed.registration.id, start));
      clock = new Date(start.getTime() + 29 * DAY);
      const recent = await storage.registrations.register(
        newRegistration("subscription", { name: "Recent" }),
      );

      clock = new Date(start.getTime() + 30 * DAY + 1);
      const result = await storage.admin.purgeUnconfirmed();
      expect(result).toEqual({
        cutoff: new Date(start.getTime() + 1).toISOString(),
        deleted: 1,
      });
      const names = (await storage.admin.exportAll()).map((r) => r.name);
      expect(names).toEqual(["Before consent", "Kept", "Recent"]);
      expect(await storage.admin.findByEmail(stale.registration.email)).toEqual([]);
      expect(recent.registration.consent?.version).toBe("2026-11-23");
    });
  });
}
