import { describe, expect, it, onTestFinished } from "vitest";

import { type AnnouncementDrafts, createAnnouncementDrafts } from "./drafts.ts";
import type { StaffMember } from "../../contract/console.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import type { OutgoingMail } from "../mail/transport.ts";
import { openServices } from "../services.ts";
import { confirmToken, loadLinkKey } from "../shared/links.ts";

const logger = createLogger("silent");
const now = new Date("2026-11-27T12:00:00.000Z");
const input = (body: string) => ({ subject: "We are open", body, audience: "all" as const });
const wordsChanged = { ok: false, message: "The words changed since you opened this page." };
const ok = { ok: true };
const refused = { ok: false };
const hiddenInSubject = {
  ok: false,
  message:
    "The subject has a hidden character in it, such as a zero-width space or a right-to-left mark. Type it again without one.",
};
const nebido = "Nebido now £45 a month.";
const manager = (id: string): StaffMember => ({
  id,
  email: `${id}@clinic.example`,
  role: "manager",
});
const [a, b] = [manager("a"), manager("b")];
type Step = Parameters<AnnouncementDrafts["step"]>[2];

/** What `registrations -- announce` does with `body`, its warning not acknowledged. */
const fromCli = (drafts: AnnouncementDrafts, body: string) =>
  drafts.fromCli({ ...input(body), acknowledged: false });

/** The id of a new draft of `body` by `author`. */
async function composed(drafts: AnnouncementDrafts, author: StaffMember, body: string) {
  const made = await drafts.compose(author, input(body));
  if (!made.ok) throw new Error(made.message);
  return made.id;
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`announcement drafts on ${backend.name}`, () => {
    /** Three confirmed registrants and two managers, with the mailer's messages kept. */
    async function setUp() {
      const place = await backend.fresh();
      onTestFinished(() => place.drop());
      const sent: OutgoingMail[] = [];
      const services = await openServices(place.env, logger, {
        now: () => now,
        mailer: { send: async (m) => void sent.push(m), close() {} },
      });
      onTestFinished(() => services.close());
      const { db } = createDatabase(place.env, logger);
      onTestFinished(() => db.destroy());
      const key = await loadLinkKey(db);
      for (let i = 0; i < 3; i++) {
        const { registration } = await services.registrations.register(newRegistration("drafts"));
        await services.registrations.confirm(confirmToken(key, registration.id, now));
      }
      const staff = [a, b].map((m) => ({ ...m, created_at: now.toISOString() }));
      await db.insertInto("staff").values(staff).execute();
      const queued = async () =>
        (await db.selectFrom("outbox").select("id").where("topic", "=", "announcement").execute())
          .length;
      const trail = () =>
        db.selectFrom("audit_trail").select(["staff_id", "action", "detail"]).execute();
      /** Each actor's audited steps ("cli" for the terminal), sorted: one clock for the whole
       * test, and ids within the same millisecond are in no order. */
      const audit = async () => {
        const steps: Record<string, string[]> = {};
        for (const { staff_id, action } of await trail()) {
          (steps[staff_id ?? "cli"] ??= []).push(action.replace(/^announcement-/, ""));
        }
        return Object.fromEntries(
          Object.entries(steps).map(([who, s]) => [who, s.sort().join(" ")]),
        );
      };
      const approvals = async () =>
        (await trail())
          .filter((r) => r.action === "announcement-approved")
          .map((r) => [r.staff_id, JSON.parse(r.detail) as unknown]);
      sent.length = 0;
      const drafts = services.announcements;
      /** What a page showing the draft now would post: its version, and maybe the tick. */
      const seen = async (id: string, acknowledged = false) => ({
        acknowledged,
        version: (await drafts.view(a, id))?.version,
      });
      /** A step posted from a page opened just now (ticked or not), or with no page at all. */
      const act = async (who: StaffMember, id: string, which: Step, tick?: boolean) =>
        drafts.step(who, id, which, tick === undefined ? undefined : await seen(id, tick));
      /** Drafts on the same database whose approvers are whatever `approvers` says. */
      const draftsWith = (approvers: (authorId: string | null) => Promise<string[]>) =>
        createAnnouncementDrafts({
          db,
          now: () => now,
          mailer: { send: async () => {}, close() {} },
          siteOrigin: "https://clinic.example",
          linkKey: key,
          mailPerMinute: 60,
          wakeMail: () => {},
          audit: async () => {},
          approvers,
        });
      return { drafts, db, sent, queued, audit, approvals, seen, act, draftsWith };
    }

    it("stores the text without hidden characters, and refuses a subject that has one (decision 174)", async () => {
      const { drafts, db } = await setUp();
      const drafted = db.selectFrom("announcement_drafts").select("body");
      const stored = async (id: string) => (await drafted.where("id", "=", id).execute())[0]?.body;
      const health = "\u{1F468}\u200D\u2695\uFE0F";
      const typed = `\u202ENeb\u200Bido\u202C from \u00A3\u2060\u200D45, with\u00AD thanks ${health}`;
      const id = await composed(drafts, a, typed);
      // The emoji's joiner is how the emoji is spelled, so it stays.
      expect(await stored(id)).toBe(`Nebido from \u00A345, with thanks ${health}`);
      for (const hidden of ["\u202E", "\u2066", "\u2069", "\u200B", "\u00AD", "\uFEFF"]) {
        const subject = `We are${hidden} open`;
        expect(
          await drafts.compose(a, { ...input("Open today."), subject }),
          JSON.stringify(hidden),
        ).toEqual(hiddenInSubject);
      }
      const cli = await fromCli(drafts, "Open\u2066 today.\u2069");
      if (cli.kind !== "submitted") throw new Error(cli.kind);
      expect(await stored(cli.draftId)).toBe("Open today.");
      // The same words, hidden characters or not, are the same announcement.
      const again = await fromCli(drafts, "Open today.");
      expect(again).toMatchObject({ kind: "waiting", draftId: cli.draftId });
    });

    it("needs the warning acknowledged, a second manager's approval, then sends each address once", async () => {
      const { drafts, sent, queued, audit, db, act } = await setUp();
      const id = await composed(drafts, a, "Nebido from £45.");

      expect(await act(a, id, "send", false)).toMatchObject(refused);
      expect(await act(a, id, "submit", false)).toMatchObject(refused);
      expect(await act(a, id, "submit", true)).toEqual(ok);
      // Whoever changes the words becomes their author: b rewrites, so a must approve.
      expect(await act(b, id, "reopen")).toEqual(ok);
      expect(await drafts.compose(b, input("Nebido from £45."), id)).toEqual({ ok: true, id });
      expect(await act(b, id, "submit", true)).toEqual(ok);
      expect(await act(b, id, "approve", true)).toMatchObject(refused);
      expect(await act(a, id, "approve", true)).toEqual(ok);

      expect(await act(a, id, "test")).toEqual(ok);
      expect(sent.map((m) => [m.to, m.subject])).toEqual([
        ["a@clinic.example", "Test: We are open"],
      ]);
      expect(await queued()).toBe(0);

      const before = await drafts.view(b, id);
      expect(before?.recipients).toEqual({ fresh: 3, already: 0 });
      expect(before?.preview.text).toContain("Hello there,\n\nNebido from £45.");
      expect(before?.steps).toEqual(["reopen", "send", "withdraw", "test"]);
      // The services count the active managers other than its author (a), who may approve it.
      expect(before?.otherApprovers).toBe(1);
      for (const sending of ["the first", "again"]) {
        expect(await act(b, id, "send", false), sending).toEqual(ok);
        expect(await queued(), sending).toBe(3);
      }
      expect(await act(a, id, "withdraw")).toMatchObject(refused);
      const during = await drafts.view(a, id);
      // Nothing sent yet: done when the pace (60 a minute) lets the third go, 2 s from now.
      expect(during?.progress).toEqual({
        sent: 0,
        queued: 3,
        failed: 0,
        perMinute: 0,
        finishAt: new Date(now.getTime() + 2_000).toISOString(),
        finishIn: "2 s",
        slowedDown: false,
      });
      expect(during?.state).toBe("sending");

      // A send that stopped before its last email was queued stays open, and resumes.
      await db.updateTable("announcement_drafts").set({ queued_at: null }).execute();
      await db.updateTable("outbox").set({ status: "delivered" }).execute();
      expect((await drafts.view(a, id))?.steps).toContain("send");
      expect(await act(b, id, "send", false)).toEqual(ok);
      expect(await queued()).toBe(3);
      expect((await drafts.view(a, id))?.state).toBe("sent");
      expect(await audit()).toEqual({
        a: "approved composed submitted test-sent",
        b: "edited reopened sent sent sent submitted",
      });
    });

    it("lets a lone manager approve their own, and two clicks at once move it once", async () => {
      const { drafts, db, seen, audit, act, approvals } = await setUp();
      const removed = { removed_at: now.toISOString() };
      await db.updateTable("staff").set(removed).where("id", "=", "b").execute();
      const id = await composed(drafts, a, "Doors open on Monday.");
      expect(await act(a, id, "submit", false)).toEqual(ok);
      const twice = await Promise.all([
        drafts.step(a, id, "approve", await seen(id)),
        drafts.step(a, id, "approve", await seen(id)),
      ]);
      expect(twice.filter((r) => r.ok)).toHaveLength(1);
      // Said plainly: on its page, in the list, and in the audit trail.
      expect((await drafts.view(a, id))?.approvedAlone).toBe(true);
      expect((await drafts.list()).find((d) => d.id === id)?.approvedAlone).toBe(true);
      expect((await approvals()).map(([, detail]) => detail)).toEqual([{ draft: id, alone: true }]);
      expect(await act(b, id, "withdraw")).toEqual(ok);
      expect((await drafts.view(a, id))?.approvedAlone).toBe(false);
      expect(await audit()).toEqual({ a: "approved composed submitted", b: "withdrawn" });
    });

    it("takes the CLI's text as a submitted draft, and queues it only once a manager approved it", async () => {
      const { drafts, queued, audit, act } = await setUp();
      const cli = () => fromCli(drafts, "Open today.");
      const first = await cli();
      expect(first.kind).toBe("submitted");
      expect(await cli()).toMatchObject({ kind: "waiting", state: "submitted" });
      expect(await queued()).toBe(0);
      const draftId = first.kind === "submitted" ? first.draftId : "";
      expect(await act(a, draftId, "approve", false)).toEqual(ok);
      expect(await drafts.view(a, draftId)).toMatchObject({
        approvedAlone: false,
        otherApprovers: 2,
      });
      for (const newRecipients of [3, 0]) {
        expect(await cli()).toMatchObject({ kind: "queued", result: { newRecipients } });
      }
      expect(await queued()).toBe(3);
      expect(await audit()).toEqual({ a: "approved", cli: "sent sent submitted" });
    });

    it("approves only the words its approver saw, with their warning acknowledged by the approver", async () => {
      const { drafts, seen, act, approvals } = await setUp();
      const id = await composed(drafts, a, "We open on 3 March.");
      expect(await act(a, id, "submit", false)).toEqual(ok);
      const opened = await seen(id, true);
      // Back to draft and submitted again with the same words: what b read still holds.
      expect(await act(a, id, "reopen")).toEqual(ok);
      expect(await act(a, id, "submit", false)).toEqual(ok);
      expect((await seen(id)).version).toBe(opened.version);
      // Changed words: b's page is out of date, and no version is no better.
      expect(await act(a, id, "reopen")).toEqual(ok);
      expect(await drafts.compose(a, input(nebido), id)).toEqual({ ok: true, id });
      expect(await act(a, id, "submit", true)).toEqual(ok);
      expect(await drafts.step(b, id, "approve", opened)).toEqual(wordsChanged);
      expect(await drafts.step(b, id, "approve", { acknowledged: true })).toEqual(wordsChanged);
      expect(await drafts.view(b, id)).toMatchObject({
        state: "submitted",
        approvedBy: null,
        warning: { medicines: ["nebido"] },
      });
      // The new words carry a warning, which b must acknowledge as b approves them.
      const current = await seen(id, true);
      expect(await drafts.step(b, id, "approve", current)).toEqual(ok);
      expect(await drafts.view(a, id)).toMatchObject({
        state: "approved",
        acknowledgedBy: "a@clinic.example",
        approvedBy: "b@clinic.example",
        approvalAcknowledged: true,
        approvedAlone: false,
      });
      expect(await approvals()).toEqual([["b", { draft: id, warning: "acknowledged" }]]);

      // Sending is bound too: back to draft, new words approved, and the old page's send is refused.
      expect(await act(a, id, "reopen")).toEqual(ok);
      expect((await drafts.view(a, id))?.approvalAcknowledged).toBe(false);
      expect(await drafts.compose(a, input("We open on 4 March."), id)).toEqual({ ok: true, id });
      expect(await act(a, id, "submit", false)).toEqual(ok);
      expect(await act(b, id, "approve", false)).toEqual(ok);
      expect(await drafts.step(b, id, "send", current)).toEqual(wordsChanged);
      expect((await drafts.view(b, id))?.state).toBe("approved");
    });

    it("moves nothing when the words change between the check and the update", async () => {
      const { db, draftsWith } = await setUp();
      let meanwhile: (() => Promise<unknown>) | undefined;
      // Asked between the read and the conditional update: the other tab's moment.
      const drafts = draftsWith(async () => {
        const run = meanwhile;
        meanwhile = undefined;
        await run?.();
        return ["b"];
      });
      const id = await composed(drafts, a, "We open on 3 March.");
      const version = async () => (await drafts.view(b, id))?.version;
      expect(await drafts.step(a, id, "submit", { version: await version() })).toEqual(ok);
      const opened = { version: await version(), acknowledged: true };
      // Back to draft, new words, submitted again: the state is "submitted" as it was read.
      meanwhile = () =>
        db.updateTable("announcement_drafts").set({ body: nebido }).where("id", "=", id).execute();
      expect(await drafts.step(b, id, "approve", opened)).toEqual({
        ok: false,
        message: "Someone else changed this announcement just now. Look at it again.",
      });
      expect(await drafts.view(b, id)).toMatchObject({ state: "submitted", approvedBy: null });
    });

    it("lets an author approve alone exactly when no other manager may approve their work", async () => {
      const { draftsWith } = await setUp();
      const asked: (string | null)[] = [];
      // Two managers, but nobody may approve a's work: a rule the staff store may bring.
      const drafts = draftsWith(async (authorId) => {
        asked.push(authorId);
        return authorId === "a" ? [] : ["a"];
      });
      for (const [author, alone] of [
        [a, true],
        [b, false],
      ] as const) {
        const id = await composed(drafts, author, `From ${author.id}.`);
        const version = (await drafts.view(author, id))?.version;
        expect(await drafts.step(author, id, "submit", { version })).toEqual(ok);
        const view = await drafts.view(author, id);
        expect(view?.otherApprovers).toBe(alone ? 0 : 1);
        expect(view?.steps.includes("approve")).toBe(alone);
        expect((await drafts.step(author, id, "approve", { version })).ok).toBe(alone);
        expect((await drafts.view(author, id))?.approvedAlone).toBe(alone);
      }
      expect(new Set(asked)).toEqual(new Set(["a", "b"]));
    });
  });
}
