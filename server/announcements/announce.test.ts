import { describe, expect, it, onTestFinished } from "vitest";

import { announcementProblem, planAnnouncement, queueAnnouncement } from "./queue.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { backends } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import { openServices } from "../services.ts";
import { confirmToken, loadLinkKey } from "../shared/links.ts";

const logger = createLogger("silent");
const now = new Date("2026-11-23T12:00:00.000Z");
/** `seconds` (under ten) after `now`, as the outbox writes it. */
const at = (seconds: number) => `2026-11-23T12:00:0${seconds}.000Z`;

describe("announcement text", () => {
  it.each([
    ["We are open", "Hello", null],
    [" ", "Hello", "The subject is empty."],
    ["Open\r\nBcc: x@example.com", "Hello", "The subject must be one line."],
    ["x".repeat(151), "Hello", expect.stringMatching(/longer than 150/)],
    ["Open", "\n\n", "The text is empty."],
    ["Open", "\u200B\n\u2060", "The text is empty."],
    // An emoji's joiner and variation selector are part of the emoji.
    ["Meet our doctors \u{1F468}\u200D\u2695\uFE0F", "Hello", null],
  ])("subject %j, text %j: refused in plain words as %j, or null", (subject, body, problem) => {
    expect(announcementProblem(subject, body)).toEqual(problem);
  });
});

for (const backend of backends) {
  describe.runIf(backend.enabled)(`announcements on ${backend.name}`, () => {
    async function withConfirmed(count: number) {
      const place = await backend.fresh();
      onTestFinished(() => place.drop());
      const storage = await openServices(place.env, logger, { now: () => now });
      onTestFinished(() => storage.close());
      const side = createDatabase(place.env, logger);
      onTestFinished(() => side.db.destroy());
      const key = await loadLinkKey(side.db);
      for (let i = 0; i < count; i++) {
        const { registration } = await storage.registrations.register(newRegistration("announce"));
        await storage.registrations.confirm(confirmToken(key, registration.id, now));
      }
      return side.db;
    }

    const pending = (db: Awaited<ReturnType<typeof withConfirmed>>) =>
      db
        .selectFrom("outbox")
        .select(["registration_id", "next_attempt_at", "dedupe_key"])
        .where("topic", "=", "announcement")
        .orderBy("next_attempt_at")
        .execute();

    it("paces the queue, resumes after a run that stopped half-way, and never queues an address twice", async () => {
      const db = await withConfirmed(4);
      const message = { subject: "We are open", body: "Hello.", now, perMinute: 30, chunk: 1 };
      const first = await queueAnnouncement(db, message);
      expect(first).toMatchObject({
        newRecipients: 4,
        alreadyQueued: 0,
        firstAt: at(0),
        lastAt: at(6),
      });
      const rows = await pending(db);
      expect(rows.map((r) => r.next_attempt_at)).toEqual([0, 2, 4, 6].map(at));

      // A run that died before its last chunk committed: that row is missing.
      await db.deleteFrom("outbox").where("dedupe_key", "=", rows[3]!.dedupe_key).execute();
      const plan = await planAnnouncement(db, "We are open", "Hello.");
      expect(plan).toMatchObject({ newRecipients: 1, alreadyQueued: 3 });
      const resumed = await queueAnnouncement(db, message);
      expect(resumed).toMatchObject({ newRecipients: 1, alreadyQueued: 3 });
      // It follows the last one still waiting, at the same pace.
      expect(resumed.firstAt).toBe(at(6));
      expect(await pending(db)).toHaveLength(4);

      const third = await queueAnnouncement(db, message);
      expect(third).toMatchObject({ newRecipients: 0, alreadyQueued: 4, firstAt: null });
      const ids = (await pending(db)).map((r) => r.registration_id);
      expect(new Set(ids).size).toBe(4);
    });

    it("holds to one row per address even when two runs race", async () => {
      const db = await withConfirmed(30);
      const message = { subject: "Race", body: "Hello.", now, perMinute: 600, chunk: 7 };
      const results = await Promise.allSettled([1, 2].map(() => queueAnnouncement(db, message)));
      const queued = results
        .filter((r) => r.status === "fulfilled")
        .reduce((n, r) => n + r.value.newRecipients, 0);
      expect(queued).toBe(30);
      expect(await pending(db)).toHaveLength(30);
    });
  });
}
