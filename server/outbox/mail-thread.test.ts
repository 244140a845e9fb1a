import { afterEach, expect, it } from "vitest";

import { startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { newRegistration } from "../../scripts/lib/registrations.ts";
import { sqliteBackend } from "../../tests/support/storage-backends.ts";
import { createDatabase } from "../db/database.ts";
import { createLogger } from "../logger.ts";
import { openServices } from "../services.ts";

const logger = createLogger("silent");
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

it("the server's mail thread sends, and an erasure aborts its send in flight there at once", async () => {
  const mail = await startMailCatcher();
  cleanups.push(() => mail.close());
  const place = await sqliteBackend.fresh({
    SMTP_URL: mail.url,
    MAIL_FROM: "Clinic <hello@clinic.test>",
    SITE_URL: "https://clinic.test",
    LOG_LEVEL: "silent",
  });
  cleanups.push(place.drop);
  const server = await openServices(place.env, logger, { mailThread: true });
  cleanups.push(() => server.close());
  const reader = createDatabase(place.env, logger);
  cleanups.push(() => reader.db.destroy());
  const inFlight = async () =>
    (
      await reader.db
        .selectFrom("outbox")
        .select("id")
        .where("kind", "=", "mail")
        .where("sending_until", "is not", null)
        .execute()
    ).length;

  server.start();
  const first = newRegistration("thread-sent");
  await server.registrations.register(first);
  await expect.poll(() => mail.messages.length, { timeout: 10_000 }).toBe(1);

  mail.hanging = true;
  const second = newRegistration("thread-erased");
  await server.registrations.register(second);
  await expect.poll(inFlight, { timeout: 10_000 }).toBe(1);
  const began = Date.now();
  await server.admin.eraseByEmail(second.email);
  expect(Date.now() - began, "the erasure waited for the send's timeout").toBeLessThan(5_000);
  // Without the thread's answer it would wait out the send's timeout, 20 s.
  mail.release();
  const third = newRegistration("thread-after");
  await server.registrations.register(third);
  await mail.waitFor(third.email, 1, 10_000);
});
