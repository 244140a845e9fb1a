import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { createStaffOperations, type StaffOperations } from "./operations.ts";
import { LOOKUPS_PER_HOUR } from "./people.ts";
import {
  EXPORTS_PER_DAY,
  type PeopleOperations,
  type StaffMember,
} from "../../contract/console.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";
import { confirmToken, loadLinkKey, unsubscribeToken } from "../shared/links.ts";

const logger = createLogger("silent");
const start = new Date("2026-06-15T12:00:00.000Z");
const HOUR = 60 * 60_000;
const refused = { ok: false };
const refusedFor = (reason: string) => ({ ok: false, message: expect.stringContaining(reason) });

for (const backend of backends) {
  describe.runIf(backend.enabled)(`People in the console on ${backend.name}`, () => {
    let clock = start;
    const hoursOn = (hours: number) => (clock = new Date(start.getTime() + hours * HOUR));
    let place: TestPlace;
    let services: Services;
    let side: ReturnType<typeof createDatabase>;
    let operations: StaffOperations;
    let manager: StaffMember;
    let people: PeopleOperations;

    beforeEach(async () => {
      place = await backend.fresh();
      // Each reading a millisecond on, so audit lines (time-ordered ids) keep their order.
      const tick = () => (clock = new Date(clock.getTime() + 1));
      services = await openServices(place.env, logger, { now: tick });
      side = createDatabase(place.env, logger);
      operations = createStaffOperations({
        store: services.staff,
        consoleOrigin: "http://localhost:3001",
        admin: services.admin,
      });
      manager = await member("manager");
      people = operations.forRequest(manager).people;
    });

    afterEach(async () => {
      await side.db.destroy();
      await services.close();
      await place.drop();
      clock = start;
    });

    async function member(role: StaffMember["role"]): Promise<StaffMember> {
      const { token } = await services.staff.createInvite(`${role}@clinic.example`, role);
      const id = `cred-${role}`;
      return (await services.staff.enrol(token, {
        id,
        publicKey: new Uint8Array([1]),
        counter: 0,
        transports: [],
      }))!;
    }
    const auditText = async () =>
      JSON.stringify((await sql`select * from audit_trail`.execute(side.db)).rows).toLowerCase();
    const actions = async () =>
      (
        await sql<{ action: string; registration_id: string | null }>`
          select action, registration_id from audit_trail where staff_id = ${manager.id}
          order by id`.execute(side.db)
      ).rows;
    const markSent = () => sql`update outbox set status = 'delivered'`.execute(side.db);
    const confirmations = async () =>
      Number(
        (
          await sql<{ n: string | number }>`
            select count(*) as n from outbox where topic = 'confirmation'`.execute(side.db)
        ).rows[0]?.n,
      );

    it("finds by the exact address only, shows, erases after a retyped address, and audits each step without the address", async () => {
      const person = newRegistration("sar", { email: "Kim.Sar@Example.co.uk" });
      const { registration } = await services.registrations.register(person);

      expect(await people.find("kim.sar@example")).toMatchObject(refused);
      expect(await people.find("kim.sar@example.co")).toEqual({ id: null, erasures: [] });
      expect(await people.find("  KIM.SAR@example.co.uk ")).toEqual({ id: registration.id });

      const copy = await people.view(registration.id, "view");
      expect(copy?.registrations).toHaveLength(1);
      expect(copy?.registrations[0]).toMatchObject({
        name: person.name,
        email: "Kim.Sar@Example.co.uk",
        phone: person.phone,
        message: person.message,
        consent: { version: person.consent.version, wantsUpdates: false },
      });
      expect(copy?.registrations[0]?.emails).toMatchObject([
        { topic: "confirmation", status: "pending" },
      ]);
      // The CLI's `show --email` prints the same records.
      expect(copy).toEqual({
        registrations: await services.admin.findByEmail(person.email),
        erasures: [],
      });
      await people.view(registration.id, "print");
      await people.view(registration.id, "download");

      expect(await people.erase(registration.id, "kim.sar@example.com")).toMatchObject(refused);
      expect(await services.admin.count()).toBe(1);
      const erased = await people.erase(registration.id, " kim.SAR@example.co.uk");
      expect(erased).toMatchObject({ ok: true, erasures: [{ registrations: 1 }] });
      expect(await services.admin.findByEmail(person.email)).toEqual([]);
      expect(await people.view(registration.id, "view")).toBeNull();
      expect(await people.find(person.email)).toMatchObject({
        id: null,
        erasures: [{ registrations: 1 }],
      });

      expect(await actions()).toEqual([
        { action: "person-looked-up", registration_id: null },
        { action: "person-looked-up", registration_id: registration.id },
        { action: "person-viewed", registration_id: registration.id },
        { action: "copy-printed", registration_id: registration.id },
        { action: "copy-downloaded", registration_id: registration.id },
        { action: "erase-refused", registration_id: registration.id },
        { action: "person-erased", registration_id: registration.id },
        { action: "person-looked-up", registration_id: null },
      ]);
      const audit = await auditText();
      expect(audit).not.toContain("kim.sar");
      expect(audit).not.toContain(person.name.toLowerCase());
    });

    it("re-sends the confirmation within the form's per-address limits, never to a confirmed or unsubscribed address", async () => {
      const { registration } = await services.registrations.register(newRegistration("resend"));
      const resend = () => people.resendConfirmation(registration.id);
      const [no, sent] = [refusedFor(""), { ok: true }];
      // Hours on, the answer, and the confirmations queued since registering, each then sent.
      for (const [hours, answer, queued, why] of [
        [0, no, 1, "one is waiting"],
        [0.5, no, 1, "within the hour"],
        [2, sent, 2, "a second"],
        [4, sent, 3, "a third"],
        [6, refusedFor("three in the last day"), 3, "a fourth in a day"],
      ] as const) {
        if (hours) hoursOn(hours);
        expect(await resend(), why).toEqual(answer);
        expect(await confirmations(), why).toBe(queued);
        await markSent();
      }

      const key = await loadLinkKey(side.db);
      await services.registrations.confirm(confirmToken(key, registration.id, start));
      hoursOn(30);
      expect(await resend()).toMatchObject(refusedFor("already confirmed"));
      await services.registrations.unsubscribe(unsubscribeToken(key, registration.id));
      expect(await resend()).toMatchObject(refusedFor("unsubscribed"));
      expect((await actions()).map((a) => a.action)).toEqual([
        "confirmation-refused",
        "confirmation-refused",
        "confirmation-resent",
        "confirmation-resent",
        "confirmation-refused",
        "confirmation-refused",
        "confirmation-refused",
      ]);
    });

    it("exports with the count audited, limits look-ups, and gives a viewer nothing", async () => {
      await services.registrations.register(newRegistration("export"));
      await services.registrations.register(newRegistration("export"));
      const csv = await people.exportCsv();
      expect(typeof csv === "string" && csv.trim().split("\r\n")).toHaveLength(3);
      expect(await actions()).toEqual([
        { action: "registrations-exported", registration_id: null },
      ]);

      for (let i = 0; i < LOOKUPS_PER_HOUR; i++) await people.find(`nobody${i}@example.com`);
      expect(await people.find("one-more@example.com")).toMatchObject(refused);
      expect((await actions()).at(-1)).toEqual({
        action: "look-up-refused",
        registration_id: null,
      });
      clock = new Date(start.getTime() + HOUR + 1000);
      expect(await people.find("one-more@example.com")).toMatchObject({ id: null });

      const viewer = operations.forRequest(await member("viewer")).people;
      expect(await viewer.find("one-more@example.com")).toMatchObject(refused);
      await expect(viewer.view("anything", "view")).rejects.toThrow("Only a manager");
      await expect(viewer.exportCsv()).rejects.toThrow();
    });

    it(`allows ${String(EXPORTS_PER_DAY)} exports in any 24 hours, and audits the refusal beyond`, async () => {
      for (let i = 0; i < EXPORTS_PER_DAY; i++) {
        expect(typeof (await people.exportCsv()), `export ${String(i + 1)}`).toBe("string");
      }
      expect(await people.exportCsv()).toMatchObject(refusedFor("in the last 24 hours"));
      const done = await actions();
      expect(done.filter((a) => a.action === "registrations-exported")).toHaveLength(
        EXPORTS_PER_DAY,
      );
      expect(done.at(-1)).toEqual({ action: "export-refused", registration_id: null });
      clock = new Date(clock.getTime() + 24 * HOUR);
      expect(typeof (await people.exportCsv())).toBe("string");
    });
  });
}
