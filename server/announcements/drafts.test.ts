import { afterEach, describe, expect, it } from "vitest";

import type { StaffMember } from "../../contract/console.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import type { OutgoingMail } from "../mail/transport.ts";
import { confirmToken, loadLinkKey } from "../registrations/links.ts";
import { openServices } from "../services.ts";

const logger = createLogger("silent");
const now = new Date("2026-11-27T12:00:00.000Z");
const input = (body: string) => ({ subject: "We are open", body, audience: "all" as const });

for (const backend of backends) {
  describe.runIf(backend.enabled)(`announcement drafts on ${backend.name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
    });

    /** Three confirmed registrants and two managers, with the mailer's messages kept. */
    async function setUp() {
      const place = await backend.fresh();
      cleanups.push(place.drop);
      const sent: OutgoingMail[] = [];
      const services = await openServices(place.env, logger, {
        now: () => now,
        mailer: { send: async (m) => void sent.push(m), close() {} },
      });
      cleanups.push(() => services.close());
      const { db } = createDatabase(place.env, logger);
      cleanups.push(() => db.destroy());
      const key = await loadLinkKey(db);
      for (let i = 0; i < 3; i++) {
        const { registration } = await services.registrations.register({
          name: `Person ${i}`,
          email: `p${i}@example.com`,
          phone: null,
          message: null,
          clientTimestamp: null,
          idempotencyKey: `drafts-${i}`,
          consent: { version: "2026-11-23", wantsUpdates: false },
        });
        await services.registrations.confirm(confirmToken(key, registration.id, now));
      }
      const managers: StaffMember[] = ["a", "b"].map((id) => ({
        id,
        email: `${id}@clinic.example`,
        role: "manager",
      }));
      await db
        .insertInto("staff")
        .values(managers.map((m) => ({ ...m, created_at: now.toISOString() })))
        .execute();
      const queued = async () =>
        (await db.selectFrom("outbox").select("id").where("topic", "=", "announcement").execute())
          .length;
      const audit = async () =>
        (
          await db
            .selectFrom("audit_trail")
            .select(["staff_id", "action", "detail"])
            .orderBy("id")
            .execute()
        )
          .map((r) => `${r.staff_id ?? "cli"} ${r.action}`)
          // One clock for the whole test: ids within the same millisecond are in no order.
          .sort();
      sent.length = 0;
      return { drafts: services.announcements, db, sent, queued, audit, managers };
    }

    it("needs the warning acknowledged, a second manager's approval, then sends each address once", async () => {
      const { drafts, sent, queued, audit, managers, db } = await setUp();
      const [a, b] = managers as [StaffMember, StaffMember];
      const made = await drafts.compose(a, input("Nebido from £45."));
      if (!made.ok) throw new Error(made.message);
      const { id } = made;

      expect(await drafts.step(a, id, "send")).toMatchObject({ ok: false });
      expect(await drafts.step(a, id, "submit")).toMatchObject({ ok: false });
      expect(await drafts.step(a, id, "submit", true)).toEqual({ ok: true });
      expect(await drafts.step(a, id, "approve")).toEqual({
        ok: false,
        message: "Another manager must approve an announcement you wrote.",
      });
      // Whoever changes the words becomes their author: b rewrites, so a must approve.
      expect(await drafts.step(b, id, "reopen")).toEqual({ ok: true });
      expect(await drafts.compose(b, input("Nebido from £45."), id)).toEqual({ ok: true, id });
      expect(await drafts.step(b, id, "submit", true)).toEqual({ ok: true });
      expect(await drafts.step(b, id, "approve")).toMatchObject({ ok: false });
      expect(await drafts.step(a, id, "approve")).toEqual({ ok: true });

      expect(await drafts.step(a, id, "test")).toEqual({ ok: true });
      expect(sent.map((m) => [m.to, m.subject])).toEqual([
        ["a@clinic.example", "Test: We are open"],
      ]);
      expect(await queued()).toBe(0);

      const before = await drafts.view(b, id);
      expect(before?.recipients).toEqual({ fresh: 3, already: 0 });
      expect(before?.preview.text).toContain("Hello there,\n\nNebido from £45.");
      expect(before?.steps).toEqual(["reopen", "send", "withdraw", "test"]);
      expect(await drafts.step(b, id, "send")).toEqual({ ok: true });
      expect(await queued()).toBe(3);
      expect(await drafts.step(b, id, "send")).toEqual({ ok: true });
      expect(await queued()).toBe(3);
      expect(await drafts.step(a, id, "withdraw")).toMatchObject({ ok: false });
      const during = await drafts.view(a, id);
      expect(during?.progress).toEqual({ sent: 0, queued: 3, failed: 0 });
      expect(during?.state).toBe("sending");

      // A send that stopped before its last email was queued stays open, and resumes.
      await db.updateTable("announcement_drafts").set({ queued_at: null }).execute();
      await db.updateTable("outbox").set({ status: "delivered" }).execute();
      expect((await drafts.view(a, id))?.steps).toContain("send");
      expect(await drafts.step(b, id, "send")).toEqual({ ok: true });
      expect(await queued()).toBe(3);
      expect((await drafts.view(a, id))?.state).toBe("sent");
      expect(await audit()).toEqual([
        "a announcement-approved",
        "a announcement-composed",
        "a announcement-submitted",
        "a announcement-test-sent",
        "b announcement-edited",
        "b announcement-reopened",
        "b announcement-sent",
        "b announcement-sent",
        "b announcement-sent",
        "b announcement-submitted",
      ]);
    });

    it("lets a lone manager approve their own, and two clicks at once move it once", async () => {
      const { drafts, managers, db } = await setUp();
      const [a, b] = managers as [StaffMember, StaffMember];
      await db
        .updateTable("staff")
        .set({ removed_at: now.toISOString() })
        .where("id", "=", "b")
        .execute();
      const made = await drafts.compose(a, input("Doors open on Monday."));
      if (!made.ok) throw new Error(made.message);
      expect(await drafts.step(a, made.id, "submit")).toEqual({ ok: true });
      expect((await drafts.view(a, made.id))?.steps).toContain("approve");
      const twice = await Promise.all([
        drafts.step(a, made.id, "approve"),
        drafts.step(a, made.id, "approve"),
      ]);
      expect(twice.filter((r) => r.ok)).toHaveLength(1);
      expect(await drafts.step(b, made.id, "withdraw")).toEqual({ ok: true });
    });

    it("takes the CLI's text as a submitted draft, and queues it only once a manager approved it", async () => {
      const { drafts, managers, queued, audit } = await setUp();
      const [a] = managers as [StaffMember];
      const cli = () => drafts.fromCli({ ...input("Open today."), acknowledged: false });
      const first = await cli();
      expect(first.kind).toBe("submitted");
      expect(await cli()).toMatchObject({ kind: "waiting", state: "submitted" });
      expect(await queued()).toBe(0);
      expect(
        await drafts.step(a, first.kind === "submitted" ? first.draftId : "", "approve"),
      ).toEqual({
        ok: true,
      });
      expect(await cli()).toMatchObject({ kind: "queued", result: { newRecipients: 3 } });
      expect(await cli()).toMatchObject({ kind: "queued", result: { newRecipients: 0 } });
      expect(await queued()).toBe(3);
      expect(
        await drafts.fromCli({ ...input("Nebido is here."), acknowledged: false }),
      ).toMatchObject({ kind: "warning", medicines: ["nebido"] });
      expect(await audit()).toEqual([
        "a announcement-approved",
        "cli announcement-sent",
        "cli announcement-sent",
        "cli announcement-submitted",
      ]);
    });
  });
}
