import type { Updateable } from "kysely";
import { describe, expect, it, onTestFinished } from "vitest";

import { TOP_SOURCES } from "./overview.ts";
import type { Attribution } from "../../contract/registrations.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import type { OutboxKind, OutboxTable, RegistrationsTable } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { openServices } from "../services.ts";

const logger = createLogger("silent");
const spreadsheet = {
  SPREADSHEET_URL: "http://127.0.0.1:9/never-called",
  SPREADSHEET_SECRET: "s".repeat(32),
};
const source = (values: Partial<Attribution>): Attribution => ({
  source: null,
  medium: null,
  campaign: null,
  referrer: null,
  ...values,
});

for (const backend of backends) {
  describe.runIf(backend.enabled)(`the waiting list at a glance on ${backend.name}`, () => {
    let clock: Date;

    /** The services, a second handle on their database to set states directly, and registerAt. */
    async function open(extra: Record<string, string> = {}) {
      clock = new Date("2026-06-15T12:00:00.000Z");
      const place = await backend.fresh(extra);
      onTestFinished(place.drop);
      const services = await openServices(place.env, logger, { now: () => clock });
      onTestFinished(() => services.close());
      const { db } = createDatabase(place.env, logger);
      onTestFinished(() => db.destroy());
      /** One registration received at `at`. */
      async function registerAt(at: string, attribution?: Attribution | null) {
        clock = new Date(at);
        const registration = newRegistration("overview", { attribution });
        return (await services.registrations.register(registration)).registration;
      }
      return { ...services, db, registerAt };
    }

    it("is all zeros and no rate on an empty list, with 30 days and 12 weeks ending today", async () => {
      const overview = await (await open()).admin.overview();
      expect(overview.today).toBe("2026-06-15");
      expect(overview.days).toHaveLength(30);
      expect(overview.days.at(0)).toEqual({ date: "2026-05-17", count: 0 });
      expect(overview.days.at(-1)).toEqual({ date: "2026-06-15", count: 0 });
      expect(overview.weeks).toHaveLength(12);
      expect(overview.weeks.at(-1)).toEqual({ monday: "2026-06-15", count: 0 });
      expect(overview.weeks.at(0)?.monday).toBe("2026-03-30");
      expect(overview.totals).toEqual({
        registered: 0,
        confirmed: 0,
        unconfirmed: 0,
        unsubscribed: 0,
        erased: 0,
        askedForNews: 0,
      });
      expect(overview.confirmationRate).toBeNull();
      expect(overview.sources.source).toEqual({ top: [], others: 0, notRecorded: 0 });
    });

    it("counts per London day and Monday week, and the totals and rate", async () => {
      const { admin, db, registerAt } = await open();
      // 23:30 UTC in June is 00:30 the next day in London.
      await registerAt("2026-06-14T23:30:00.000Z");
      await registerAt("2026-06-14T22:59:00.000Z");
      await registerAt("2026-06-01T09:00:00.000Z");
      // In January London is on UTC.
      await registerAt("2026-01-05T23:30:00.000Z");
      const confirmed = await registerAt("2026-06-15T08:00:00.000Z");
      const news = await registerAt("2026-06-15T09:00:00.000Z");
      const erased = await registerAt("2026-06-15T10:00:00.000Z");
      await admin.eraseByEmail(erased.email);
      clock = new Date("2026-06-15T12:00:00.000Z");
      const set = (ids: string[], values: Updateable<RegistrationsTable>) =>
        db.updateTable("registrations").set(values).where("id", "in", ids).execute();
      await set([confirmed.id, news.id], { confirmed_at: "2026-06-15T11:00:00.000Z" });
      await set([news.id], { wants_updates: 1, unsubscribed_at: "2026-06-15T11:30:00.000Z" });

      const overview = await admin.overview();
      const day = (date: string) => overview.days.find((d) => d.date === date)?.count;
      expect(day("2026-06-15"), "today in London, 00:30 BST included").toBe(3);
      expect(day("2026-06-14")).toBe(1);
      expect(day("2026-06-01")).toBe(1);
      expect(overview.days.reduce((sum, d) => sum + d.count, 0)).toBe(5);
      expect(overview.weeks.at(-1)).toEqual({ monday: "2026-06-15", count: 3 });
      expect(overview.weeks.at(-2)).toEqual({ monday: "2026-06-08", count: 1 });
      expect(overview.weeks.at(-3)).toEqual({ monday: "2026-06-01", count: 1 });
      expect(overview.totals).toEqual({
        registered: 6,
        confirmed: 2,
        unconfirmed: 4,
        unsubscribed: 1,
        erased: 1,
        askedForNews: 1,
      });
      expect(overview.confirmationRate).toBeCloseTo(2 / 6);
    });

    it("counts sources only where they were recorded, and names the rest 'not recorded'", async () => {
      const { admin, registerAt } = await open();
      const at = "2026-06-10T10:00:00.000Z";
      const newsletter = source({ source: "newsletter", medium: "email" });
      for (let i = 0; i < 3; i++) await registerAt(at, newsletter);
      await registerAt(at, source({ source: "facebook", referrer: "m.facebook.com" }));
      await registerAt(at, source({}));
      await registerAt(at, null);
      await registerAt(at);
      for (let i = 0; i <= TOP_SOURCES; i++) await registerAt(at, source({ source: `rare-${i}` }));

      const { sources } = await admin.overview();
      expect(sources.source.notRecorded).toBe(2);
      expect(sources.source.top[0]).toEqual({ value: "newsletter", count: 3 });
      expect(sources.source.top).toHaveLength(TOP_SOURCES);
      expect(sources.source.top.reduce((s, r) => s + r.count, 0) + sources.source.others).toBe(11);
      expect(sources.medium.top).toEqual([
        { value: null, count: 8 },
        { value: "email", count: 3 },
      ]);
      expect(sources.referrer.top).toEqual([
        { value: null, count: 10 },
        { value: "m.facebook.com", count: 1 },
      ]);
      expect(sources.campaign).toEqual({
        top: [{ value: null, count: 11 }],
        others: 0,
        notRecorded: 2,
      });
    });

    it("reads mail and spreadsheet health from the outbox: failures by reply code", async () => {
      const { admin, db, registerAt } = await open(spreadsheet);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await registerAt("2026-06-10T10:00:00Z")).id);
      /** Sets the outbox row of kind `kind` of the `person`th registration. */
      const set = (person: number, kind: OutboxKind, values: Updateable<OutboxTable>) =>
        db
          .updateTable("outbox")
          .set(values)
          .where("registration_id", "=", ids[person]!)
          .where("kind", "=", kind)
          .execute();
      await set(0, "mail", { status: "dead", last_error: "SMTP 550 5.1.1" });
      await set(1, "mail", { status: "dead", last_error: "SMTP 550 5.7.1" });
      await set(2, "mail", { status: "dead", last_error: "connect ECONNREFUSED" });
      await set(3, "mail", { status: "delivered", delivered_at: "2026-06-10T10:01:00Z" });
      const dead = { status: "dead", last_error: "HTTP 500" } as const;
      await set(0, "spreadsheet", { ...dead, created_at: "2026-06-09T08:00:00.000Z" });
      await set(1, "spreadsheet", dead);
      await db
        .insertInto("mail_suppressions")
        .values({ email_hash: "x", reply: "550 5.1.1", suppressed_at: "2026-06-10T10:02:00Z" })
        .execute();

      const { mail, spreadsheet: sheet } = await admin.overview();
      expect(mail).toEqual({
        queued: 1,
        sent: 1,
        failed: 3,
        failedByReply: [
          { reply: "550", count: 2 },
          { reply: "none", count: 1 },
        ],
        suppressed: 1,
      });
      expect(sheet).toMatchObject({ waiting: 3, failed: 2 });
      expect(sheet.oldestFailedAt).toBe("2026-06-09T08:00:00.000Z");
      expect(sheet.oldestWaitingAt).not.toBeNull();
    });
  });
}
