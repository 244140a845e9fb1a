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

    const at = (days: number, ms = 0) => new Date(start.getTime() + days * DAY + ms);

    async function setUp(extra?: Record<string, string>) {
      const p: TestPlace = await backend.fresh(extra);
      cleanups.push(p.drop);
      const storage: Services = await openServices(p.env, logger, { now: () => clock });
      cleanups.push(() => storage.close());
      const side = createDatabase(p.env, logger);
      cleanups.push(() => side.db.destroy());
      const key = await loadLinkKey(side.db);
      const { registrations, admin } = storage;
      const register = async (values?: Parameters<typeof newRegistration>[1]) =>
        (await registrations.register(newRegistration("subscription", values))).registration;
      return { registrations, admin, register, key, db: side.db };
    }

    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
      clock = start;
    });

    it("confirms once with a genuine link; a second click is harmless; the spreadsheet hears of it once", async () => {
      const { registrations, admin, register, key } = await setUp(SPREADSHEET);
      const registration = await register();
      const token = confirmToken(key, registration.id, new Date(registration.receivedAt));

      clock = at(3);
      expect(await registrations.confirm(token)).toEqual({ kind: "confirmed", firstTime: true });
      clock = at(4);
      expect(await registrations.confirm(token)).toEqual({ kind: "confirmed", firstTime: false });
      const [shown] = await admin.findByEmail(registration.email);
      expect(shown?.confirmedAt).toBe(at(3).toISOString());
      // The registration itself, then one status delivery.
      expect((await admin.outboxSummary()).kinds.spreadsheet.counts.pending).toBe(2);
      // Long after the link expired, it still says "confirmed", never "expired".
      clock = at(40);
      expect(await registrations.confirm(token)).toEqual({ kind: "confirmed", firstTime: false });
    });

    it("refuses forged, altered and expired links and changes nothing", async () => {
      const { registrations, admin, register, key } = await setUp();
      const registration = await register();
      const token = confirmToken(key, registration.id, start);
      const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
      const forged = confirmToken("f".repeat(64), registration.id, start);
      const otherId = confirmToken(key, "00000000-0000-4000-8000-000000000000", start);
      for (const bad of [altered, forged, "", "nonsense", unsubscribeToken(key, registration.id)]) {
        expect(await registrations.confirm(bad)).toEqual({ kind: "invalid" });
      }
      expect(await registrations.confirm(otherId)).toEqual({ kind: "gone" });
      clock = at(7);
      expect(await registrations.confirm(token)).toEqual({ kind: "expired" });
      const [shown] = await admin.findByEmail(registration.email);
      expect(shown?.confirmedAt).toBeNull();
    });

    it("unsubscribes every registration of the address, drops its queued mail, and is safe to repeat", async () => {
      const { registrations, admin, register, key } = await setUp(SPREADSHEET);
      const first = await register({ email: "Alex@Example.com" });
      await register({ email: "alex@example.com" });
      const other = await register();
      const token = unsubscribeToken(key, first.id);

      const check = () => registrations.checkUnsubscribe(token);
      const unsubscribe = () => registrations.unsubscribe(token);
      expect(await check()).toEqual({ kind: "valid", alreadyUnsubscribed: false });
      expect(await unsubscribe()).toEqual({ kind: "unsubscribed", firstTime: true });
      expect(await unsubscribe()).toEqual({ kind: "unsubscribed", firstTime: false });
      expect(await check()).toEqual({ kind: "valid", alreadyUnsubscribed: true });
      const shown = await admin.findByEmail("alex@example.com");
      const now = start.toISOString();
      expect(shown.map((r) => r.unsubscribedAt)).toEqual([now, now]);
      expect(shown.flatMap((r) => r.emails)).toEqual([]);
      const [untouched] = await admin.findByEmail(other.email);
      expect(untouched?.unsubscribedAt).toBeNull();
      expect(untouched?.emails).toHaveLength(1);
      const summary = await admin.outboxSummary();
      // Three registrations, two status deliveries (one per unsubscribed registration).
      expect(summary.kinds.spreadsheet.counts.pending).toBe(5);
      expect(summary.kinds.mail.counts.pending).toBe(1);

      for (const bad of ["", token.slice(0, -2), confirmToken(key, first.id, start)]) {
        expect(await registrations.checkUnsubscribe(bad)).toEqual({ kind: "invalid" });
        expect(await registrations.unsubscribe(bad)).toEqual({ kind: "invalid" });
      }
      await admin.eraseByEmail("alex@example.com");
      expect(await unsubscribe()).toEqual({ kind: "gone" });
    });

    it("purges unconfirmed registrations after 30 days, keeping confirmed ones and older rows without consent", async () => {
      const { registrations, admin, register, key, db } = await setUp();
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
      const stale = await register({ name: "Stale" });
      const confirmed = await register({ name: "Kept" });
      await registrations.confirm(confirmToken(key, confirmed.id, start));
      clock = at(29);
      const recent = await register({ name: "Recent" });

      clock = at(30, 1);
      const result = await admin.purgeUnconfirmed();
      expect(result).toEqual({ cutoff: at(0, 1).toISOString(), deleted: 1 });
      const names = (await admin.exportAll()).map((r) => r.name);
      expect(names).toEqual(["Before consent", "Kept", "Recent"]);
      expect(await admin.findByEmail(stale.email)).toEqual([]);
      expect(recent.consent?.version).toBe("2026-11-23");
    });
  });
}
