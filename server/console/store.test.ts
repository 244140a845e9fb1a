import { afterEach, describe, expect, it } from "vitest";

import { createStaffOperations } from "./operations.ts";
import { ABSOLUTE_MS, IDLE_MS } from "./session.ts";
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
      expect(invited.ok && invited.link).toMatch(
        /^https:\/\/console\.clinic\.example\/console\/enrol\?token=[\w-]{43}$/,
      );
      const viewer = await storage.staff.enrol(
        new URL(invited.ok ? invited.link : "x:").searchParams.get("token") ?? "",
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
  });
}
