import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { createStaffOperations, type StaffOperations } from "./operations.ts";
import { ABSOLUTE_MS, hashToken, IDLE_MS } from "./session.ts";
import { ActiveMemberError, type InviteOptions } from "./staff.ts";
import type { StaffRole } from "../../contract/console.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";

const logger = createLogger("silent");
const passkey = (id: string) => ({
  id,
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports: ["internal"],
});
const managerOnly = { ok: false, message: "Only a manager can do that." };
const confirmFirst = {
  ok: false,
  confirmFirst: true,
  message: "First confirm it is you with one of your passkeys.",
};

for (const backend of backends) {
  describe.runIf(backend.enabled)(`the staff console's storage on ${backend.name}`, () => {
    let clock = new Date("2026-06-15T12:00:00.000Z");
    const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
    const inFiveMinutes = () => new Date(clock.getTime() + 5 * 60_000).toISOString();
    let place: TestPlace;
    let services: Services;
    let staff: Services["staff"];
    let operations: StaffOperations;

    beforeEach(async () => {
      place = await backend.fresh();
      services = await openServices(place.env, logger, { now: () => clock });
      staff = services.staff;
      const consoleOrigin = "https://console.clinic.example";
      operations = createStaffOperations({ store: staff, consoleOrigin });
    });

    afterEach(async () => {
      await services.close();
      await place.drop();
      clock = new Date("2026-06-15T12:00:00.000Z");
    });

    /** Someone enrolled from a new invite with one passkey (named `key`, else by the address). */
    const enrolled = async (email: string, role: StaffRole, key = email, options?: InviteOptions) =>
      (await staff.enrol((await staff.createInvite(email, role, options)).token, passkey(key)))!;

    /** name@clinic.example enrolled from an invite with the given passkeys, and two sessions. */
    async function person(name: string, role: StaffRole, ...ids: string[]) {
      const member = await enrolled(`${name}@clinic.example`, role, ids[0] ?? "");
      for (const id of ids.slice(1)) await staff.addPasskey(member.id, passkey(id));
      const here = await staff.createSession(member.id);
      later(1000);
      const there = await staff.createSession(member.id);
      return { member, here, there };
    }

    it("enrols once from an invite, and holds a session until idle or old", async () => {
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
      const { token } = await staff.createInvite("late@clinic.example", "viewer");
      later(24 * 60 * 60_000);
      expect(await staff.enrol(token, passkey("cred-late"))).toBeNull();
    });

    it("removing a person ends their sessions and passkeys; a re-invite restores them", async () => {
      const boss = await enrolled("boss@clinic.example", "manager", "boss");
      const invited = await operations.invite(boss, "viewer@clinic.example", "viewer");
      const link = invited.ok && !invited.pending && invited.link;
      expect(link).toMatch(/^https:\/\/console\.clinic\.example\/console\/enrol\?token=[\w-]{43}$/);
      const token = new URL(link || "x:").searchParams.get("token") ?? "";
      const viewer = await staff.enrol(token, passkey("viewer"));
      const session = await staff.createSession(viewer!.id);

      expect(await operations.remove(viewer, boss.id), "a viewer").toEqual(managerOnly);
      expect((await operations.remove(boss, boss.id)).ok, "the last manager").toBe(false);
      later(1000);
      expect((await operations.revokeByEmail(null, "Viewer@clinic.example")).ok).toBe(true);
      expect(await staff.resolveSession(session)).toBeNull();
      expect(await staff.passkey("viewer")).toBeNull();

      const again = await staff.createInvite("viewer@clinic.example", "manager");
      expect(await staff.enrol(again.token, passkey("viewer-2"))).toMatchObject({
        id: viewer!.id,
        role: "manager",
      });
      const page = await staff.auditPage(1);
      expect(page.entries.map((e) => [e.action, e.staff])).toEqual([
        ["staff-removed", null],
        ["staff-invited", "boss@clinic.example"],
      ]);
      expect(page.entries[0]?.detail).toEqual({ email: "viewer@clinic.example", by: "cli" });
    });

    it("never enrols into an active account: no passkey added, no role changed (decision 175)", async () => {
      const viewer = await enrolled("viewer@clinic.example", "viewer", "own");
      const session = await staff.createSession(viewer.id);
      // An invite for their address made before the fix, or in a race with their enrolment.
      const stale = await staff.createInvite("VIEWER@clinic.example", "manager");
      await expect(staff.enrol(stale.token, passkey("intruder"))).rejects.toBeInstanceOf(
        ActiveMemberError,
      );
      expect(await staff.passkey("intruder")).toBeNull();
      expect((await staff.passkeysOf(viewer.id)).map((p) => p.id)).toEqual(["own"]);
      expect(await staff.activeById(viewer.id)).toMatchObject({ role: "viewer" });
      expect(await staff.resolveSession(session)).toMatchObject({ id: viewer.id });
    });

    it("a removed member re-invited starts afresh; a reset removes and invites again", async () => {
      const person = await enrolled("lost@clinic.example", "manager", "old");
      const session = await staff.createSession(person.id);
      const made = await staff.reset(person.id, { invitedBy: null });
      expect(made).toMatchObject({ email: "lost@clinic.example", role: "manager" });
      expect(await staff.resolveSession(session)).toBeNull();
      expect(await staff.passkey("old")).toBeNull();
      expect(await staff.activeById(person.id)).toBeUndefined();
      expect(await staff.invitations()).toEqual([
        expect.objectContaining({ email: "lost@clinic.example", invitedBy: null, reset: true }),
      ]);
      expect(await staff.reset(person.id), "no longer active").toBeNull();
      const back = await staff.enrol(made!.token, passkey("new"));
      expect(back).toEqual({ id: person.id, email: "lost@clinic.example", role: "manager" });
      expect((await staff.passkeysOf(person.id)).map((p) => p.id)).toEqual(["new"]);
      expect(await staff.invitations()).toEqual([]);
    });

    it("counts the approvers of an author without the managers they made alone", async () => {
      const manager = (email: string, managerBy: string | null = null) =>
        enrolled(email, "manager", email, { managerBy });
      const a = await manager("a@clinic.example");
      const b = await manager("b@clinic.example");
      const c = await manager("c@clinic.example", a.id);
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
      await staff.issueChallenge("c1", "sign-in", "");
      expect(await staff.consumeChallenge("c1", "enrol", "")).toBe(false);
      expect(await staff.consumeChallenge("c1", "sign-in", "")).toBe(true);
      expect(await staff.consumeChallenge("c1", "sign-in", "")).toBe(false);
      await staff.issueChallenge("c2", "sign-in", "");
      later(5 * 60_000);
      expect(await staff.consumeChallenge("c2", "sign-in", "")).toBe(false);
    });

    it("keeps the audit trail for the retention period plus 12 months", async () => {
      await staff.audit({ staffId: null, action: "old" });
      later(36 * 31 * 24 * 60 * 60_000);
      await staff.audit({ staffId: null, action: "new", registrationId: "r1" });
      expect((await staff.purge(24)).audit).toBe(1);
      expect((await staff.auditPage(1)).entries.map((e) => e.action)).toEqual(["new"]);
    });

    it("removes a passkey of its owner only, and the last one only when told, ending every session", async () => {
      const { member, here, there } = await person("ops", "viewer", "a", "b");
      const other = await person("other", "viewer", "c");
      expect((await staff.passkeysOf(member.id)).map((p) => [p.id, p.transports])).toEqual([
        ["a", ["internal"]],
        ["b", ["internal"]],
      ]);
      for (const [why, id, last, outcome] of [
        ["another's", "c", true, { outcome: "missing", sessionsEnded: 0 }],
        ["one of two", "a", false, { outcome: "removed", sessionsEnded: 0 }],
        ["gone already", "a", false, expect.objectContaining({ outcome: "missing" })],
        ["the last", "b", false, { outcome: "is-last", sessionsEnded: 0 }],
        ["the last when told", "b", true, { outcome: "removed-last", sessionsEnded: 2 }],
      ] as const) {
        expect(await staff.resolveSession(here), `signed in before ${why}`).not.toBeNull();
        expect(await staff.removePasskey(member.id, id, last), why).toEqual(outcome);
      }
      expect(await staff.passkey("c")).not.toBeNull();
      expect(await staff.passkeysOf(member.id)).toEqual([]);
      expect(await staff.resolveSession(here)).toBeNull();
      expect(await staff.resolveSession(there)).toBeNull();
      expect(await staff.resolveSession(other.here), "someone else's").not.toBeNull();
    });

    it("lists a person's live sessions by public id and ends others, one or all", async () => {
      const { member, here, there } = await person("ops", "viewer", "a");
      const third = await staff.createSession(member.id);
      const other = await person("other", "viewer", "b");
      const sessions = await staff.sessionsOf(member.id, here);
      expect(sessions.map((s) => [s.id, s.current])).toEqual([
        [hashToken(here).slice(0, 16), true],
        [hashToken(there).slice(0, 16), false],
        [hashToken(third).slice(0, 16), false],
      ]);
      for (const s of sessions)
        for (const token of [here, there, third]) expect(token).not.toContain(s.id);

      const thereId = sessions[1]!.id;
      const kept = { keep: here, id: sessions[0]!.id };
      expect(await staff.endSessions(member.id, kept), "never the kept one").toBe(0);
      expect(await staff.endSessions(other.member.id, { id: thereId }), "not another's").toBe(0);
      expect(await staff.endSessions(member.id, { keep: here, id: thereId })).toBe(1);
      expect(await staff.resolveSession(there)).toBeNull();
      expect(await staff.resolveSession(third)).not.toBeNull();
      expect(await staff.endSessions(member.id, { keep: here })).toBe(1);
      expect((await staff.sessionsOf(member.id, here)).map((s) => s.current)).toEqual([true]);
      expect(await staff.endSessions(member.id)).toBe(1);
      expect(await staff.resolveSession(here)).toBeNull();
      expect(await staff.sessionsOf(other.member.id), "someone else's").toHaveLength(2);
      // An idle session is not listed, nor counted as ended.
      later(IDLE_MS);
      expect(await staff.sessionsOf(other.member.id)).toEqual([]);
      expect(await staff.endSessions(other.member.id)).toBe(0);
    });

    it("adding or removing a passkey and ending sessions need a confirmation with the person's own passkey", async () => {
      const { member, here, there } = await person("ops", "manager", "a", "b");
      const other = await person("viewer", "viewer", "c");
      const mine = operations.forRequest(member, here);
      for (const unconfirmed of [
        () => mine.ceremonyOptions("add"),
        () => mine.completeCeremony("add", { id: "x", response: {} }),
        () => mine.removePasskey("a", false),
        () => mine.endMySessions(),
      ])
        expect(await unconfirmed()).toEqual(confirmFirst);
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
      expect(await staff.consumeChallenge(options!.challenge, "confirm", member.id)).toBe(true);
      // Another person's passkey does not confirm this one, and the attempt is audited.
      expect(await mine.completeCeremony("confirm", { id: "c", response: {} })).toEqual({
        ok: false,
        message: "That did not confirm it is you. Use one of your own passkeys and try again.",
      });
      expect(await staff.confirmedUntil(here), "not since sign-in").toBeNull();

      // Once confirmed (as a verified assertion does), each works for 5 minutes.
      await staff.confirmSession(here);
      expect(await staff.confirmedUntil(there), "only the session that confirmed").toBeNull();
      expect(await mine.ceremonyOptions("confirm")).toEqual({
        ok: true,
        confirmedUntil: inFiveMinutes(),
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
      expect(await staff.resolveSession(there)).toBeNull();
      later(5 * 60_000 - 1);
      expect(await staff.confirmedUntil(here)).not.toBeNull();
      later(1);
      expect(await mine.removePasskey("b", true)).toEqual(confirmFirst);

      // A manager ends anyone's sessions without confirming; a viewer cannot.
      const theirs = operations.forRequest(other.member, other.here);
      expect(await theirs.endSessionsOf(member.id)).toEqual(managerOnly);
      expect(await mine.endSessionsOf(other.member.id)).toEqual({ ok: true, ended: 2 });
      expect(await staff.resolveSession(other.here)).toBeNull();

      await staff.confirmSession(here);
      const last = await mine.removePasskey("b", true);
      expect(last.ok && last.signedOut).toMatch(/^__Host-console-session=;.*Max-Age=0$/);
      expect(await staff.resolveSession(here)).toBeNull();
      // The clock stands still here, so entries of one instant come in any order.
      const actions = (await staff.auditPage(1)).entries
        .filter((e) => e.action !== "staff-invited")
        .map((e) => `${e.action} ${JSON.stringify(e.detail)}`);
      expect(actions.sort()).toEqual(
        [
          "confirm-failed {}",
          `passkey-removed {"last":false}`,
          `sessions-ended {"staff":"${member.id}","count":1}`,
          `sessions-ended {"staff":"${other.member.id}","count":2}`,
          `passkey-removed {"last":true}`,
          `sessions-ended {"staff":"${member.id}","count":1}`,
        ].sort(),
      );
    });
  });
}
