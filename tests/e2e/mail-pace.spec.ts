import { expect, test } from "@playwright/test";

import { startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { inParallel, newRegistration, postRegistration } from "../../scripts/lib/registrations.ts";
import { announceApproved, confirmAll, startMailSite } from "../support/mail-site.ts";

/**
 * Issue 38: the outbox sends as fast as the mail server accepts, and announcements at the
 * pace MAIL_PER_MINUTE sets. The worker before it gave way to "busy" after each round of three
 * sends, which its own sends had made busy: about 3 emails a second whatever the server.
 */

const PEOPLE = 300;
/** 20 a second: seven times what the old worker managed, a fifth of what this one does alone. */
const WITHIN_MS = 15_000;
const withinTime = { timeout: WITHIN_MS, intervals: [100] };

test("300 confirmations reach a mail server that answers at once within 15 s of the registrations, and an announcement to them keeps its 6,000-a-minute pace [~30 s]", async () => {
  test.setTimeout(180_000);
  const mail = await startMailCatcher();
  const server = await startMailSite(mail, { MAIL_PER_MINUTE: "6000" }, { keepOutput: false });
  try {
    const people = Array.from({ length: PEOPLE }, () => newRegistration("paced"));
    await inParallel(people, 20, async (person) => {
      expect((await postRegistration(server.url, person)).status).toBe(200);
    });
    const registered = Date.now();
    await expect.poll(() => mail.messages.length, withinTime).toBe(PEOPLE);
    const confirmationsMs = Date.now() - registered;

    confirmAll(server.dataDir);
    const subject = `Opening ${Date.now()}`;
    const text = "Our doors open today.\n";
    expect(
      await announceApproved(server.dataDir, { subject, text }, { MAIL_PER_MINUTE: "6000" }),
    ).toMatch(/^Queued announcement \w+ for 300 addresses/);
    const queued = Date.now();
    const announced = () => mail.messages.filter((m) => m.parsed.subject === subject);
    // Queued 10 ms apart (3 s in all): the worker keeps up, with time to spare for a busy machine.
    await expect.poll(() => announced().length, withinTime).toBe(PEOPLE);
    const announcementMs = Date.now() - queued;
    expect(new Set(announced().map((m) => m.to)).size).toBe(PEOPLE);
    expect(mail.messages).toHaveLength(2 * PEOPLE);
    console.warn(
      `mail-pace: ${PEOPLE} confirmations in ${confirmationsMs} ms, the announcement in ${announcementMs} ms`,
    );
  } finally {
    await server.stop();
    await mail.close();
  }
});
