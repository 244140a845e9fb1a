import { afterEach, describe, expect, it } from "vitest";

import { createStaffOperations } from "./operations.ts";
import { ABSOLUTE_MS, hashToken, IDLE_MS } from "./session.ts";
import { ActiveMemberError } from "./staff.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";

const logger = createLogger("silent");
const passkey = (id: string) => ({
  id,
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports: ["internal"],
});

for (const backend of backends) {
  describe.runIf(backend.enabled)(`the staff console's storage on ${backend.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    let clock = new Date("2026-06-15T12:00:00.000Z");
    const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

    async function open(): Promise<Services> {
      const place = await backend.fresh();
      cleanups.push(place.drop);
      const storage = await openServices(place.env, logger, { now: () => clock });
      cleanups.unshift(() => storage.close());
      return storage;
    }

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
      clock = new Date("2026-06-15T12:00:00.000Z");
    });

    it("enrols once from an invite, and holds a session until idle or old", async () => {
      const { staff } = await open();
      const { token } = await staff.createInvite(" Ops@Clinic.example ", "manager");
      const person = await staff.enrol(token, passkey("cred-1"));
      expect(person).toMatchObject({ email: "ops@clinic.example", role: "manager" });
      expect(await staff.enrol(token, passkey("cred-2")), "a used invite").toBeNull();
      expect(await staff.validInvite(token)).toBeNull();
      const found = await staff.passkey("cred-1");
      expect(found?.passkey.counter).toBe(0);
      expect([...(found?.passkey.publicKey ?? [])]).toEqual([1, 2, 3]);

      const session = await staff.createSession(person!.id);
      later(IDLE_MS - 1000);
      expect(await staff.resolveSession(session)).toMatchObject({ id: person!.id });
      later(IDLE_MS - 1000);
      expect(await staff.resolveSession(session), "kept alive by use").not.toBeNull();
      later(IDLE_MS);
      expect(await staff.resolveSession(session), "idle").toBeNull();

      const busy = await staff.createSession(person!.id);
      for (let t = 0; t < ABSOLUTE_MS; t += 20 * 60_000) {
        later(20 * 60_000);
        if (t + 20 * 60_000 < ABSOLUTE_MS) expect(await staff.resolveSession(busy)).not.toBeNull();
      }
      expect(await staff.resolveSession(busy), "12 hours").toBeNull();
    });

    it("an invite expires after 24 hours", async () => {
      const { staff } = await open();
      const { token } = await staff.createInvite("late@clinic.example", "viewer");
      later(24 * 60 * 60_000);
      expect(await staff.enrol(token, passkey("cred-late"))).toBeNull();
    });

    it("removing a person ends their sessions and passkeys; a re-invite restores them", async () => {
      const storage = await open();
      const operations = createStaffOperations({
        store: storage.staff,
        consoleOrigin: "https://console.clinic.example",
      });
      const boss = await storage.staff.enrol(
        (await storage.staff.createInvite("boss@clinic.example", "manager")).token,
        passkey("boss"),
      );
      const invited = await operations.invite(boss, "viewer@clinic.example", "viewer");
      expect(invited.ok && !invited.pending && invited.link).toMatch(
        /^https:\/\/console\.clinic\.example\/console\/enrol\?token=[\w-]{43}$/,
      );
      const viewer = await storage.staff.enrol(
        new URL((invited.ok && !invited.pending && invited.link) || "x:").searchParams.get(
          "token",
        ) ?? "",
        passkey("viewer"),
      );
      const session = await storage.staff.createSession(viewer!.id);

      expect(await operations.remove(viewer, boss!.id), "a viewer").toEqual({
        ok: false,
        message: "Only a manager can do that.",
      });
      expect((await operations.remove(boss, boss!.id)).ok, "the last manager").toBe(false);
      later(1000);
      expect((await operations.revokeByEmail(null, "Viewer@clinic.example")).ok).toBe(true);
      expect(await storage.staff.resolveSession(session)).toBeNull();
      expect(await storage.staff.passkey("viewer")).toBeNull();

      const again = await storage.staff.createInvite("viewer@clinic.example", "manager");
      expect(await storage.staff.enrol(again.token, passkey("viewer-2"))).toMatchObject({
        id: viewer!.id,
        role: "manager",
      });
      const page = await storage.staff.auditPage(1);
      expect(page.entries.map((e) => [e.action, e.staff])).toEqual([
        ["staff-removed", null],
        ["staff-invited", "boss@clinic.example"],
      ]);
      expect(page.entries[0]?.detail).toEqual({ email: "viewer@clinic.example", by: "cli" });
    });

    it("never enrols into an active account: no passkey added, no role changed (decision 175)", async () => {
      const { staff } = await open();
      const viewer = await staff.enrol(
        (await staff.createInvite("viewer@clinic.example", "viewer")).token,
        passkey("own"),
      );
      const session = await staff.createSession(viewer!.id);
      // An invite for their address made before the fix, or in a race with their enrolment.
      const stale = await staff.createInvite("VIEWER@clinic.example", "manager");
      await expect(staff.enrol(stale.token, passkey("intruder"))).rejects.toBeInstanceOf(
        ActiveMemberError,
      );
      expect(await staff.passkey("intruder")).toBeNull();
      expect((await staff.passkeysOf(viewer!.id)).map((p) => p.id)).toEqual(["own"]);
      expect(await staff.activeById(viewer!.id)).toMatchObject({ role: "viewer" });
      expect(await staff.resolveSession(session)).toMatchObject({ id: viewer!.id });
    });

    it("a removed member re-invited starts afresh; a reset removes and invites again", async () => {
      const { staff } = await open();
      const person = await staff.enrol(
        (await staff.createInvite("lost@clinic.example", "manager")).token,
        passkey("old"),
      );
      const session = await staff.createSession(person!.id);
      const made = await staff.reset(person!.id, { invitedBy: null });
      expect(made).toMatchObject({ email: "lost@clinic.example", role: "manager" });
      expect(await staff.resolveSession(session)).toBeNull();
      expect(await staff.passkey("old")).toBeNull();
      expect(await staff.activeById(person!.id)).toBeUndefined();
      expect(await staff.invitations()).toEqual([
        expect.objectContaining({ email: "lost@clinic.example", invitedBy: null, reset: true }),
      ]);
      expect(await staff.reset(person!.id), "no longer active").toBeNull();
      const back = await staff.enrol(made!.token, passkey("new"));
      expect(back).toEqual({ id: person!.id, email: "lost@clinic.example", role: "manager" });
      expect((await staff.passkeysOf(person!.id)).map((p) => p.id)).toEqual(["new"]);
      expect(await staff.invitations()).toEqual([]);
    });

    it("counts the approvers of an author without the managers they made alone", async () => {
      const { staff } = await open();
      const enrolled = async (email: string, managerBy: string | null = null) =>
        (await staff.enrol(
          (await staff.createInvite(email, "manager", { managerBy })).token,
          passkey(email),
        ))!;
      const a = await enrolled("a@clinic.example");
      const b = await enrolled("b@clinic.example");
      const c = await enrolled("c@clinic.example", a.id);
      expect(await staff.approversFor(a.id)).toEqual([b.id]);
      expect((await staff.approversFor(b.id)).sort()).toEqual([a.id, c.id].sort());
      // a made c a manager alone: one of them may hold both accounts.
      expect(await staff.approversFor(c.id)).toEqual([b.id]);
      expect(await staff.approversFor(null)).toHaveLength(3);
      expect(await staff.setRole(b.id, "manager", "viewer")).toBe(true);
      expect(await staff.setRole(b.id, "manager", "viewer"), "no longer a manager").toBe(false);
      expect(await staff.approversFor(a.id)).toEqual([]);
      expect((await staff.list()).map((p) => [p.email, p.managerBy])).toEqual([
        ["a@clinic.example", null],
        ["b@clinic.example", null],
        ["c@clinic.example", "a@clinic.example"],
      ]);
    });

    it("a challenge is used once, for its purpose, within 5 minutes", async () => {
      const { staff } = await open();
      await staff.issueChallenge("c1", "sign-in", "");
      expect(await staff.consumeChallenge("c1", "enrol", "")).toBe(false);
      expect(await staff.consumeChallenge("c1", "sign-in", "")).toBe(true);
      expect(await staff.consumeChallenge("c1", "sign-in", "")).toBe(false);
      await staff.issueChallenge("c2", "sign-in", "");
      later(5 * 60_000);
      expect(await staff.consumeChallenge("c2", "sign-in", "")).toBe(false);
    });

    it("keeps the audit trail for the retention period plus 12 months", async () => {
      const { staff } = await open();
      await staff.audit({ staffId: null, action: "old" });
      later(36 * 31 * 24 * 60 * 60_000);
      await staff.audit({ staffId: null, action: "new", registrationId: "r1" });
      const result = await staff.purge(24);
      expect(result.audit).toBe(1);
      expect((await staff.auditPage(1)).entries.map((e) => e.action)).toEqual(["new"]);
    });

    /** A person enrolled from an invite with the given passkeys, and two sessions. */
    async function person(
      storage: Services,
      email: string,
      role: "viewer" | "manager",
      ids: string[],
    ) {
      const { token } = await storage.staff.createInvite(email, role);
      const member = (await storage.staff.enrol(token, passkey(ids[0] ?? "")))!;
      for (const id of ids.slice(1)) await storage.staff.addPasskey(member.id, passkey(id));
      const here = await storage.staff.createSession(member.id);
      later(1000);
      const there = await storage.staff.createSession(member.id);
      return { member, here, there };
    }

    it("a session confirmed with a passkey may change passkeys and sessions for 5 minutes", async () => {
      const storage = await open();
      const { here, there } = await person(storage, "ops@clinic.example", "manager", ["a"]);
      expect(await storage.staff.confirmedUntil(here), "not since sign-in").toBeNull();
      await storage.staff.confirmSession(here);
      expect(await storage.staff.confirmedUntil(here)).toBe(
        new Date(clock.getTime() + 5 * 60_000).toISOString(),
      );
      expect(
        await storage.staff.confirmedUntil(there),
        "only the session that confirmed",
      ).toBeNull();
      later(5 * 60_000 - 1);
      expect(await storage.staff.confirmedUntil(here)).not.toBeNull();
      later(1);
      expect(await storage.staff.confirmedUntil(here)).toBeNull();
    });

    it("removes a passkey of its owner only, and the last one only when told, ending every session", async () => {
      const storage = await open();
      const { member, here, there } = await person(storage, "ops@clinic.example", "viewer", [
        "a",
        "b",
      ]);
      const other = await person(storage, "other@clinic.example", "viewer", ["c"]);
      expect((await storage.staff.passkeysOf(member.id)).map((p) => [p.id, p.transports])).toEqual([
        ["a", ["internal"]],
        ["b", ["internal"]],
      ]);
      expect(await storage.staff.removePasskey(member.id, "c", true), "another's").toEqual({
        outcome: "missing",
        sessionsEnded: 0,
      });
      expect(await storage.staff.passkey("c")).not.toBeNull();
      expect(await storage.staff.removePasskey(member.id, "a", false)).toEqual({
        outcome: "removed",
        sessionsEnded: 0,
      });
      expect(await storage.staff.removePasskey(member.id, "a", false)).toMatchObject({
        outcome: "missing",
      });
      expect(await storage.staff.removePasskey(member.id, "b", false), "the last").toEqual({
        outcome: "is-last",
        sessionsEnded: 0,
      });
      expect(await storage.staff.resolveSession(here)).not.toBeNull();
      expect(await storage.staff.removePasskey(member.id, "b", true)).toEqual({
        outcome: "removed-last",
        sessionsEnded: 2,
      });
      expect(await storage.staff.passkeysOf(member.id)).toEqual([]);
      expect(await storage.staff.resolveSession(here)).toBeNull();
      expect(await storage.staff.resolveSession(there)).toBeNull();
      expect(await storage.staff.resolveSession(other.here), "someone else's").not.toBeNull();
    });

    it("lists a person's live sessions by public id and ends others, one or all", async () => {
      const storage = await open();
      const { member, here, there } = await person(storage, "ops@clinic.example", "viewer", ["a"]);
      const third = await storage.staff.createSession(member.id);
      const other = await person(storage, "other@clinic.example", "viewer", ["b"]);
      const sessions = await storage.staff.sessionsOf(member.id, here);
      expect(sessions.map((s) => [s.id, s.current])).toEqual([
        [hashToken(here).slice(0, 16), true],
        [hashToken(there).slice(0, 16), false],
        [hashToken(third).slice(0, 16), false],
      ]);
      for (const s of sessions)
        for (const token of [here, there, third]) expect(token).not.toContain(s.id);

      const thereId = sessions[1]!.id;
      expect(
        await storage.staff.endSessions(member.id, { keep: here, id: sessions[0]!.id }),
        "never the kept one",
      ).toBe(0);
      expect(
        await storage.staff.endSessions(other.member.id, { id: thereId }),
        "not another's",
      ).toBe(0);
      expect(await storage.staff.endSessions(member.id, { keep: here, id: thereId })).toBe(1);
      expect(await storage.staff.resolveSession(there)).toBeNull();
      expect(await storage.staff.resolveSession(third)).not.toBeNull();
      expect(await storage.staff.endSessions(member.id, { keep: here })).toBe(1);
      expect((await storage.staff.sessionsOf(member.id, here)).map((s) => s.current)).toEqual([
        true,
      ]);
      expect(await storage.staff.endSessions(member.id)).toBe(1);
      expect(await storage.staff.resolveSession(here)).toBeNull();
      expect(await storage.staff.sessionsOf(other.member.id), "someone else's").toHaveLength(2);
      // An idle session is not listed, nor counted as ended.
      later(IDLE_MS);
      expect(await storage.staff.sessionsOf(other.member.id)).toEqual([]);
      expect(await storage.staff.endSessions(other.member.id)).toBe(0);
    });

    it("adding or removing a passkey and ending sessions need a confirmation with the person's own passkey", async () => {
      const storage = await open();
      const operations = createStaffOperations({
        store: storage.staff,
        consoleOrigin: "https://console.clinic.example",
      });
      const { member, here, there } = await person(storage, "ops@clinic.example", "manager", [
        "a",
        "b",
      ]);
      const other = await person(storage, "viewer@clinic.example", "viewer", ["c"]);
      const mine = operations.forRequest(member, here);
      const confirmFirst = {
        ok: false,
        confirmFirst: true,
        message: "First confirm it is you with one of your passkeys.",
      };
      expect(await mine.ceremonyOptions("add")).toEqual(confirmFirst);
      expect(await mine.completeCeremony("add", { id: "x", response: {} })).toEqual(confirmFirst);
      expect(await mine.removePasskey("a", false)).toEqual(confirmFirst);
      expect(await mine.endMySessions()).toEqual(confirmFirst);
      expect(await operations.forRequest(member).ceremonyOptions("confirm"), "no session").toEqual({
        ok: false,
        message: "Sign in first.",
      });

      const asked = await mine.ceremonyOptions("confirm");
      const options =
        asked.ok && "options" in asked
          ? (asked.options as { challenge: string; userVerification: string })
          : null;
      expect(options?.userVerification).toBe("required");
      expect(await storage.staff.consumeChallenge(options!.challenge, "confirm", member.id)).toBe(
        true,
      );
      // Another person's passkey does not confirm this one, and the attempt is audited.
      expect(await mine.completeCeremony("confirm", { id: "c", response: {} })).toEqual({
        ok: false,
        message: "That did not confirm it is you. Use one of your own passkeys and try again.",
      });
      expect(await storage.staff.confirmedUntil(here)).toBeNull();

      // Once confirmed (as a verified assertion does), each works for 5 minutes.
      await storage.staff.confirmSession(here);
      expect(await mine.ceremonyOptions("confirm")).toEqual({
        ok: true,
        confirmedUntil: new Date(clock.getTime() + 5 * 60_000).toISOString(),
      });
      const add = await mine.ceremonyOptions("add");
      expect(add.ok && "options" in add).toBe(true);
      expect(await mine.removePasskey("c", true), "another's passkey").toMatchObject({ ok: false });
      expect(await mine.removePasskey("a", false)).toEqual({ ok: true });
      expect(await mine.removePasskey("b", false)).toMatchObject({
        ok: false,
        message: expect.stringContaining("only passkey"),
      });
      expect(await mine.endMySessions()).toEqual({ ok: true, ended: 1 });
      expect(await storage.staff.resolveSession(there)).toBeNull();
      later(5 * 60_000);
      expect(await mine.removePasskey("b", true)).toEqual(confirmFirst);

      // A manager ends anyone's sessions without confirming; a viewer cannot.
      expect(
        await operations.forRequest(other.member, other.here).endSessionsOf(member.id),
      ).toEqual({
        ok: false,
        message: "Only a manager can do that.",
      });
      expect(await mine.endSessionsOf(other.member.id)).toEqual({ ok: true, ended: 2 });
      expect(await storage.staff.resolveSession(other.here)).toBeNull();

      await storage.staff.confirmSession(here);
      const last = await mine.removePasskey("b", true);
      expect(last.ok && last.signedOut).toMatch(/^__Host-console-session=;.*Max-Age=0$/);
      expect(await storage.staff.resolveSession(here)).toBeNull();
      // The clock stands still here, so entries of one instant come in any order.
      const actions = (await storage.staff.auditPage(1)).entries
        .filter((e) => e.action !== "staff-invited")
        .map((e) => JSON.stringify([e.action, e.detail]))
        .sort();
      expect(actions).toEqual(
        [
          ["confirm-failed", {}],
          ["passkey-removed", { last: false }],
          ["sessions-ended", { staff: member.id, count: 1 }],
          ["sessions-ended", { staff: other.member.id, count: 2 }],
          ["passkey-removed", { last: true }],
          ["sessions-ended", { staff: member.id, count: 1 }],
        ]
          .map((entry) => JSON.stringify(entry))
          .sort(),
      );
    });
  });
}
