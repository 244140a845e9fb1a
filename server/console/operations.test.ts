import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { createStaffOperations, type StaffOperations } from "./operations.ts";
import type { StaffMember, StaffRole } from "../../contract/console.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import type { Mailer } from "../mail/transport.ts";
import { openServices, type Services } from "../services.ts";

const logger = createLogger("silent");
const origin = "https://console.clinic.example";
const passkey = (id: string) => ({
  id,
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports: ["internal"],
});
const tokenOf = (link: string | undefined) => new URL(link ?? "x:").searchParams.get("token") ?? "";
const pending = { ok: true, pending: true };
const done = { ok: true, pending: false };

/**
 * Staff changes with a second manager's agreement (docs/decisions/175), through the same
 * operations the console and `npm run staff` use.
 */
for (const backend of backends) {
  describe.runIf(backend.enabled)(`staff changes on ${backend.name}`, () => {
    let place: TestPlace;
    let services: Services;
    let store: Services["staff"];
    let operations: StaffOperations;

    beforeEach(async () => {
      place = await backend.fresh();
      // A clock that moves on at every reading, so the audit trail and requests keep order.
      let at = Date.parse("2026-06-15T12:00:00.000Z");
      services = await openServices(place.env, logger, { now: () => new Date((at += 1000)) });
      store = services.staff;
      operations = createStaffOperations({ store, consoleOrigin: origin, logger });
    });

    afterEach(async () => {
      await services.close();
      await place.drop();
    });

    /** Someone the operator invited from the command line, enrolled. */
    async function enrolled(email: string, role: StaffRole): Promise<StaffMember> {
      const made = await operations.invite(null, email, role);
      if (!made.ok || made.pending) throw new Error("not invited");
      const person = await store.enrol(tokenOf(made.link), passkey(email));
      if (!person) throw new Error("not enrolled");
      return person;
    }
    const audit = async () =>
      (await store.auditPage(1)).entries
        .reverse()
        .map((e) => [e.action, e.staff, e.detail.requestedBy ?? null]);

    it("refuses to invite the address of anyone on the staff, in the console and the CLI", async () => {
      const boss = await enrolled("boss@clinic.example", "manager");
      const viewer = await enrolled("viewer@clinic.example", "viewer");
      const other = await enrolled("other@clinic.example", "manager");
      const inConsole = operations.forRequest(boss);
      for (const [email, role] of [
        ["Viewer@clinic.example", "manager"],
        [" other@CLINIC.example ", "viewer"],
        ["boss@clinic.example", "manager"],
      ] as const) {
        const refused = await inConsole.inviteStaff(email, role);
        expect(refused.ok, email).toBe(false);
        expect(!refused.ok && refused.message).toMatch(/is already on the staff list/);
        expect((await operations.invite(null, email, role)).ok, `CLI ${email}`).toBe(false);
      }
      expect(await store.invitations()).toEqual([]);
      expect(await store.requests()).toEqual([]);
      expect((await store.passkeysOf(other.id)).length).toBe(1);
      expect(await store.activeById(viewer.id)).toMatchObject({ role: "viewer" });
      // Removed, they may be invited again, and start afresh.
      await operations.revokeByEmail(null, "viewer@clinic.example");
      const again = await inConsole.inviteStaff("viewer@clinic.example", "viewer");
      expect(again).toMatchObject({ ok: true, pending: false });
    });

    it("a demotion waits for a second manager; the requester can neither agree nor approve alone", async () => {
      const a = await enrolled("a@clinic.example", "manager");
      const b = await enrolled("b@clinic.example", "manager");
      expect(await store.approversFor(a.id)).toHaveLength(1);

      const [byA, byB] = [operations.forRequest(a), operations.forRequest(b)];
      expect(await byA.changeRole(b.id, "viewer")).toEqual(pending);
      expect(await store.activeById(b.id), "still a manager").toMatchObject({ role: "manager" });
      expect(await store.approversFor(a.id), "so a still needs b").toHaveLength(1);
      const [request] = await byA.staffRequests();
      expect(request).toMatchObject({
        change: "role",
        email: "b@clinic.example",
        role: "viewer",
        requestedBy: "a@clinic.example",
        byYou: true,
        mayAgree: false,
      });
      expect(await byA.answerStaffRequest(request!.id, "agree")).toEqual({
        ok: false,
        message: "Another manager must agree to a change you asked for.",
      });
      expect(await byA.changeRole(b.id, "viewer"), "asked twice").toMatchObject({ ok: false });
      // A removal of b, or of anyone through b's demotion, waits the same way.
      expect(await byA.removeStaff(b.id)).toEqual(pending);

      const [, removal] = await byB.staffRequests();
      expect(removal).toMatchObject({ change: "remove", byYou: false, mayAgree: true });
      expect((await byB.answerStaffRequest(removal!.id, "cancel")).ok).toBe(false);
      expect(await byA.answerStaffRequest(removal!.id, "cancel")).toEqual(done);

      // b agrees to their own demotion: now it happens, and a is the only manager.
      expect(await byB.answerStaffRequest(request!.id, "agree")).toEqual(done);
      expect(await store.activeById(b.id)).toMatchObject({ role: "viewer" });
      expect(await store.approversFor(a.id)).toEqual([]);
      expect(await store.requests()).toEqual([]);
      expect((await audit()).slice(-5)).toEqual([
        ["staff-change-requested", "a@clinic.example", null],
        ["staff-change-requested", "a@clinic.example", null],
        ["staff-change-cancelled", "a@clinic.example", "a@clinic.example"],
        ["staff-change-agreed", "b@clinic.example", "a@clinic.example"],
        ["staff-role-changed", "b@clinic.example", "a@clinic.example"],
      ]);
    });

    it("adds a manager alone only with no one to agree, and neither such a manager nor their maker approves the other", async () => {
      const a = await enrolled("a@clinic.example", "manager");
      const byA = operations.forRequest(a);
      // The only manager: a adds one alone, and the link shows (no mailer).
      const alone = await byA.inviteStaff("x@clinic.example", "manager");
      expect(alone).toMatchObject({ ok: true, pending: false, invitation: { emailed: false } });
      const shown = alone.ok && !alone.pending ? alone.invitation : undefined;
      const x = (await store.enrol(tokenOf(shown?.emailed ? "" : shown?.link), passkey("x")))!;
      const managerBy = async (id: string) =>
        (await store.list()).find((p) => p.id === id)?.managerBy;
      expect(await managerBy(x.id)).toBe("a@clinic.example");
      expect(await store.approversFor(a.id), "x cannot approve a's work").toEqual([]);
      expect(await store.approversFor(x.id), "nor a x's").toEqual([]);

      // x cannot agree for a: they are one group. A manager from the operator can.
      const b = await enrolled("b@clinic.example", "manager");
      expect(await byA.inviteStaff("y@clinic.example", "manager")).toEqual(pending);
      const viewer = await enrolled("v@clinic.example", "viewer");
      expect(await byA.changeRole(viewer.id, "manager")).toEqual(pending);
      const [invite, promotion] = await store.requests();
      expect((await operations.forRequest(x).answerStaffRequest(invite!.id, "agree")).ok).toBe(
        false,
      );
      const byB = operations.forRequest(b);
      const agreed = await byB.answerStaffRequest(invite!.id, "agree");
      expect(agreed).toMatchObject({ ok: true, invitation: { email: "y@clinic.example" } });
      await byB.answerStaffRequest(promotion!.id, "agree");
      expect(await store.activeById(viewer.id)).toMatchObject({ role: "manager" });
      expect(await managerBy(viewer.id)).toBeNull();
      expect(await store.approversFor(a.id), "b and v").toHaveLength(2);
    });

    it("a reset ends sessions and passkeys and invites again; a manager's needs a third manager", async () => {
      const a = await enrolled("a@clinic.example", "manager");
      const b = await enrolled("b@clinic.example", "manager");
      const v = await enrolled("v@clinic.example", "viewer");
      const session = await store.createSession(v.id);
      const byA = operations.forRequest(a);
      expect(await byA.resetStaff(v.id)).toMatchObject({
        ok: true,
        pending: false,
        invitation: { email: "v@clinic.example", role: "viewer", reset: true, emailed: false },
      });
      expect(await store.resolveSession(session)).toBeNull();
      expect(await store.passkeysOf(v.id)).toEqual([]);
      expect(await byA.staffInvitations()).toEqual([
        expect.objectContaining({
          email: "v@clinic.example",
          invitedBy: "a@clinic.example",
          reset: true,
        }),
      ]);
      expect((await audit()).at(-1)).toEqual(["staff-reset", "a@clinic.example", null]);

      // Only a and b: nobody but b could agree to b's reset, and b may not.
      expect(await byA.resetStaff(b.id)).toMatchObject({ ok: false });
      expect(await byA.resetStaff(a.id)).toMatchObject({ ok: false });
      const c = await enrolled("c@clinic.example", "manager");
      expect(await byA.resetStaff(b.id)).toEqual(pending);
      const [request] = await operations.forRequest(b).staffRequests();
      expect(request).toMatchObject({ change: "reset", mayAgree: false });
      const bSession = await store.createSession(b.id);
      expect(await operations.forRequest(c).answerStaffRequest(request!.id, "agree")).toMatchObject(
        {
          ok: true,
          invitation: { email: "b@clinic.example", role: "manager", reset: true },
        },
      );
      expect(await store.resolveSession(bSession)).toBeNull();
      expect(await store.passkeysOf(b.id)).toEqual([]);
      // The operator resets even the last manager.
      await operations.revokeByEmail(null, "c@clinic.example");
      expect((await operations.resetByEmail("A@clinic.example")).ok).toBe(true);
      expect(await store.managers()).toBe(0);
    });

    it("with a mailer, the console sends the link to the address only and never shows it", async () => {
      const sent: string[] = [];
      let fail = false;
      const mailer: Mailer = {
        send: (message) => {
          if (fail) return Promise.reject(new Error("421 busy"));
          sent.push(`${message.to} ${message.text}`);
          return Promise.resolve();
        },
        close: () => undefined,
      };
      const a = await enrolled("a@clinic.example", "manager");
      const withMail = createStaffOperations({ store, consoleOrigin: origin, mailer, logger });
      const byA = withMail.forRequest(a);
      const outcome = await byA.inviteStaff("new@clinic.example", "viewer");
      expect(outcome).toMatchObject({ ok: true, invitation: { emailed: true } });
      expect(JSON.stringify(outcome)).not.toContain("token=");
      expect(sent.at(-1)).toMatch(/^new@clinic\.example .*\/console\/enrol\?token=/s);
      fail = true;
      expect(await byA.inviteStaff("late@clinic.example", "viewer")).toMatchObject({ ok: false });
      expect((await store.invitations()).map((i) => i.email)).toEqual(["new@clinic.example"]);
    });
  });
}
