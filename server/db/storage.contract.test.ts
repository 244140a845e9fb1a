import { sql } from "kysely";
import { describe, expect, it, onTestFinished } from "vitest";

import { createLogger } from "../logger.ts";
import { createDatabase, migrate } from "./database.ts";
import type { NewRegistration } from "../../contract/registrations.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends, type TestPlace } from "../../tests/support/storage-backends.ts";
import { openServices, type Services, type ServicesOptions } from "../services.ts";
import { registrationsCsv } from "../shared/csv.ts";

const logger = createLogger("silent");
const reg = (fields?: Partial<NewRegistration>) => newRegistration("storage", fields);
const SPREADSHEET = {
  SPREADSHEET_URL: "http://127.0.0.1:9/never-called",
  SPREADSHEET_SECRET: "s".repeat(32),
};

for (const backend of backends) {
  describe.runIf(backend.enabled)(`registration storage on ${backend.name}`, () => {
    let clock: Date;

    /** A fresh database, dropped after the test; the clock back at noon on 15 June. */
    async function place(extra?: Record<string, string>): Promise<TestPlace> {
      clock = new Date("2026-06-15T12:00:00.000Z");
      const p = await backend.fresh(extra);
      onTestFinished(p.drop);
      return p;
    }

    /** Services on it, closed after the test (before the database is dropped: last in, first out). */
    async function open(p: TestPlace, options: ServicesOptions = {}): Promise<Services> {
      const storage = await openServices(p.env, logger, { now: () => clock, ...options });
      onTestFinished(() => storage.close());
      return storage;
    }

    it.each<[string, Partial<NewRegistration>]>([
      [
        "stores every field exactly, with the client's timestamp as sent",
        {
          name: "Zoë O'Neill-Šimić",
          email: "Zoe.ONeill@example.co.uk",
          phone: "+44 (0)20 7946 0958",
          message: "Evenings are best.\nThank you — really.",
          clientTimestamp: "2026-03-01T10:15:00.123+01:00",
          attribution: { source: "newsletter", medium: "email", campaign: null, referrer: null },
        },
      ],
      [
        // Without analytics consent there is no attribution: it is stored as null too.
        "keeps a missing client timestamp and optional fields as null",
        { clientTimestamp: null, phone: null, message: null },
      ],
    ])("%s", async (_title, fields) => {
      const storage = await open(await place());
      const input = reg(fields);
      const result = await storage.registrations.register(input);
      expect(result).toEqual({
        kind: "created",
        registration: {
          attribution: null,
          ...input,
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          receivedAt: "2026-06-15T12:00:00.000Z",
          consent: { ...input.consent, at: "2026-06-15T12:00:00.000Z" },
          confirmedAt: null,
          unsubscribedAt: null,
        },
      });
      expect(await storage.admin.list(10)).toEqual([result.registration]);
    });

    it("answers a repeated idempotency key with the first registration and stores nothing new", async () => {
      const storage = await open(await place());
      const first = await storage.registrations.register(reg({ idempotencyKey: "same" }));
      clock = new Date("2026-06-15T12:00:05.000Z");
      const again = await storage.registrations.register(
        reg({ idempotencyKey: "same", name: "Someone else" }),
      );
      expect(again).toEqual({ kind: "duplicate", registration: first.registration });
      expect(await storage.admin.count()).toBe(1);
    });

    it("stores one row when the same key arrives many times at once", async () => {
      const storage = await open(await place(SPREADSHEET));
      const input = reg({ idempotencyKey: "double-click" });
      const results = await Promise.all(
        Array.from({ length: 12 }, () => storage.registrations.register(input)),
      );
      expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
      expect(new Set(results.map((r) => r.registration.id)).size).toBe(1);
      expect(await storage.admin.count()).toBe(1);
      const summary = await storage.admin.outboxSummary();
      expect(summary.kinds.spreadsheet.counts.pending).toBe(1);
      expect(summary.kinds.mail.counts.pending).toBe(1);
    });

    it("stores the good registrations of a batch when one of them is refused", async () => {
      const storage = await open(await place(SPREADSHEET));
      // A missing name breaks NOT NULL; it arrives together with valid ones.
      const broken = { ...reg(), name: null } as unknown as NewRegistration;
      const inputs = [reg(), broken, reg(), reg()];
      const results = await Promise.allSettled(
        inputs.map((i) => storage.registrations.register(i)),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
      expect(await storage.admin.count()).toBe(3);
      expect((await storage.admin.outboxSummary()).kinds.spreadsheet.counts.pending).toBe(3);
    });

    it("queues a confirmation email always, and a spreadsheet delivery only when forwarding is on", async () => {
      const off = await open(await place());
      await off.registrations.register(reg());
      const counts = (pending: number) => ({ pending, delivered: 0, dead: 0 });
      const offSummary = await off.admin.outboxSummary();
      expect(offSummary.kinds.spreadsheet.counts).toEqual(counts(0));
      expect(offSummary.kinds.mail.counts).toEqual(counts(1));

      const on = await open(await place(SPREADSHEET));
      const { registration } = await on.registrations.register(reg());
      const summary = await on.admin.outboxSummary();
      expect(summary.kinds.spreadsheet.counts).toEqual(counts(1));
      expect(summary.kinds.spreadsheet.oldestPendingAt).toBe(registration.receivedAt);
      const [shown] = await on.admin.findByEmail(registration.email);
      const waiting = { status: "pending", attempts: 0, deliveredAt: null };
      expect(shown?.delivery).toEqual(waiting);
      expect(shown?.emails).toEqual([{ topic: "confirmation", announcementId: null, ...waiting }]);
    });

    it("stores no registration when its outbox row cannot be written (one transaction)", async () => {
      const p = await place(SPREADSHEET);
      const storage = await open(p);
      const saboteur = createDatabase(p.env, logger);
      await saboteur.db.schema.dropTable("outbox").execute();
      await saboteur.db.destroy();

      await expect(storage.registrations.register(reg())).rejects.toThrow(/outbox/);
      expect(await storage.admin.count()).toBe(0);
    });

    it("shows and erases every registration for an address, whatever its letter case, with its outbox rows", async () => {
      const p = await place(SPREADSHEET);
      const storage = await open(p);
      await storage.registrations.register(reg({ email: "Sam@Example.com" }));
      await storage.registrations.register(reg({ email: "sam@example.com" }));
      const other = await storage.registrations.register(reg({ email: "kim@example.com" }));

      const shown = await storage.admin.findByEmail("SAM@example.com");
      expect(shown.map((r) => r.email)).toEqual(["Sam@Example.com", "sam@example.com"]);
      expect(shown.every((r) => r.delivery?.status === "pending")).toBe(true);

      // One of them had reached the spreadsheet.
      const side = createDatabase(p.env, logger);
      await sql`update outbox set status = 'delivered' where registration_id = ${shown[1]!.id}`.execute(
        side.db,
      );
      await side.db.destroy();
      const nothing = {
        registrations: 0,
        outbox: 0,
        mailIds: [],
        mailFiles: 0,
        spreadsheetIds: [],
        logCleared: backend.name === "sqlite" ? true : null,
      };
      expect(await storage.admin.eraseByEmail("sam@example.com")).toEqual({
        ...nothing,
        registrations: 2,
        // Each had a spreadsheet delivery; one confirmation email went to the address
        // (the second registration is within its limits: docs/decisions/102).
        outbox: 3,
        mailIds: [expect.any(String)],
        spreadsheetIds: [shown[1]!.id],
      });
      expect(await storage.admin.findByEmail("sam@example.com")).toEqual([]);
      expect(await storage.admin.list(10)).toEqual([other.registration]);
      expect((await storage.admin.outboxSummary()).kinds.spreadsheet.counts.pending).toBe(1);
      // The record: no address, found again by the address in any letter case.
      const record = {
        erasedAt: "2026-06-15T12:00:00.000Z",
        registrations: 2,
        sentToSpreadsheet: true,
        spreadsheetIds: [shown[1]!.id],
      };
      expect(await storage.admin.erasures(" SAM@example.COM ")).toEqual([record]);
      expect(await storage.admin.spreadsheetErasures()).toEqual([record]);
      expect(await storage.admin.erasures("kim@example.com")).toEqual([]);
      expect(await storage.admin.eraseByEmail("nobody@example.com")).toEqual(nothing);
      expect(await storage.admin.erasures("nobody@example.com")).toEqual([]);
    });

    it("purges registrations older than the retention period, with their outbox rows", async () => {
      const storage = await open(await place(SPREADSHEET));
      clock = new Date("2024-06-14T12:00:00.000Z");
      await storage.registrations.register(reg({ name: "Older than 24 months" }));
      clock = new Date("2024-06-16T12:00:00.000Z");
      const kept = await storage.registrations.register(reg({ name: "Just inside" }));
      clock = new Date("2026-06-15T12:00:00.000Z");

      const result = await storage.admin.purgeOlderThan({ amount: 24, unit: "months" });
      expect(result).toEqual({ cutoff: "2024-06-15T12:00:00.000Z", deleted: 1 });
      expect(await storage.admin.list(10)).toEqual([kept.registration]);
      expect((await storage.admin.outboxSummary()).kinds.spreadsheet.counts.pending).toBe(1);
    });

    it("runs the retention purge when started", async () => {
      const storage = await open(await place({ RETENTION_MONTHS: "1" }));
      clock = new Date("2026-04-01T00:00:00.000Z");
      await storage.registrations.register(reg());
      clock = new Date("2026-06-15T12:00:00.000Z");
      await storage.registrations.register(reg());
      storage.start();
      await expect.poll(() => storage.admin.count()).toBe(1);
    });

    it("lists the most recent first, up to the limit", async () => {
      const storage = await open(await place());
      for (const minute of [1, 3, 2]) {
        clock = new Date(`2026-06-15T12:0${minute}:00.000Z`);
        await storage.registrations.register(reg({ name: `At minute ${minute}` }));
      }
      const listed = (await storage.admin.list(2)).map((r) => r.name);
      expect(listed).toEqual(["At minute 3", "At minute 2"]);
      const exported = (await storage.admin.exportAll()).map((r) => r.name);
      expect(exported).toEqual(["At minute 1", "At minute 2", "At minute 3"]);
    });

    it("exports CSV that quotes awkward values and defuses formulas", async () => {
      const storage = await open(await place());
      const { registration } = await storage.registrations.register(
        reg({
          name: '=HYPERLINK("http://evil.example","Click")',
          email: "a@example.com",
          phone: "+44 7700 900123",
          message: 'Hello, "clinic"\r\nSecond line',
          clientTimestamp: "2026-03-01T09:15:00.123Z",
        }),
      );
      const csv = registrationsCsv(await storage.admin.exportAll());
      expect(csv).toBe(
        "id,received_at,client_timestamp,name,email,phone,message,consent_version,wants_updates,confirmed_at,unsubscribed_at\r\n" +
          `${registration.id},2026-06-15T12:00:00.000Z,2026-03-01T09:15:00.123Z,` +
          `"'=HYPERLINK(""http://evil.example"",""Click"")",a@example.com,'+44 7700 900123,` +
          '"Hello, ""clinic""\r\nSecond line",2026-11-23,no,,\r\n',
      );
    });

    it("applies migrations once: re-opening keeps the data and applies nothing", async () => {
      const p = await place();
      const first = await openServices(p.env, logger);
      const { registration } = await first.registrations.register(reg());
      await first.close();

      const handle = createDatabase(p.env, logger);
      expect(await migrate(handle.db, handle.dialect)).toEqual([]);
      await handle.db.destroy();

      const second = await open(p);
      expect(await second.admin.list(10)).toEqual([registration]);
    });

    it("reports that it can write (the health probe is a real write), and once closed that it cannot, rejecting with StorageUnavailableError", async () => {
      const options = { now: () => clock, healthMaxAgeMs: 0 };
      const storage = await openServices((await place()).env, logger, options);
      expect(await storage.health()).toMatchObject({ writable: true });
      expect(await storage.health()).toMatchObject({ writable: true });
      await storage.close();
      expect(await storage.health()).toMatchObject({ writable: false });
      await expect(storage.registrations.register(reg())).rejects.toMatchObject({
        name: "StorageUnavailableError",
      });
    });
  });
}
