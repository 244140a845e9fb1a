import { expect, test } from "@playwright/test";

import type { NewRegistration } from "../../contract/registrations.ts";
import { newRegistration, postRegistration, rowsPerKey } from "../../scripts/lib/registrations.ts";
import { type ServerProcess, startServer } from "../../scripts/lib/server-process.ts";

/**
 * The acceptance test of issue 5: a registration the site acknowledged is never lost.
 * Start the production server, submit registrations concurrently, SIGKILL it while
 * requests are still in flight, restart it on the same data directory, and check
 * that every acknowledged registration is there exactly once.
 */
const total = 300;
const killAfterAcknowledged = 150;
const concurrency = 24;

async function submit(server: ServerProcess, registration: NewRegistration) {
  const { status, body } = await postRegistration(server.url, registration);
  return status === 200 && body.includes("Thank you for registering");
}

test("every acknowledged registration survives SIGKILL and a restart, exactly once", async () => {
  test.setTimeout(240_000);
  const first = await startServer();
  const registrations = Array.from({ length: total }, () => newRegistration("durable"));
  const acknowledged: NewRegistration[] = [];
  let next = 0;
  let killed = false;
  let failedWhileKilled = 0;

  const worker = async () => {
    while (!killed && next < total) {
      const registration = registrations[next++]!;
      try {
        if (await submit(first, registration)) {
          acknowledged.push(registration);
          if (acknowledged.length === killAfterAcknowledged) {
            killed = true;
            // No warning, no flush: the process dies with requests half done.
            first.child.kill("SIGKILL");
          }
        }
      } catch {
        failedWhileKilled++; // the connection died with the process: not acknowledged
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  expect(await first.stop("SIGKILL")).toBe("SIGKILL");
  expect(acknowledged.length).toBeGreaterThanOrEqual(killAfterAcknowledged);

  const second = await startServer({ dataDir: first.dataDir });
  try {
    const stored = rowsPerKey(second.dataDir);
    const missing = acknowledged.filter((r) => stored.get(r.idempotencyKey)?.count !== 1);
    expect(missing, "acknowledged registrations missing after the crash").toEqual([]);
    for (const r of acknowledged) expect(stored.get(r.idempotencyKey)?.email).toBe(r.email);
    // Nothing beyond what was sent, and no key twice.
    expect(stored.size).toBeLessThanOrEqual(next);
    expect([...stored.values()].every((row) => row.count === 1)).toBe(true);

    // A visitor's browser retrying an acknowledged registration after the restart is
    // answered as a success and stores nothing new.
    for (const r of acknowledged.slice(0, 20)) expect(await submit(second, r)).toBe(true);
    expect(rowsPerKey(second.dataDir).size).toBe(stored.size);
    console.log(
      `durability: ${acknowledged.length} acknowledged, ${stored.size} stored, ${failedWhileKilled} cut off by SIGKILL`,
    );
  } finally {
    await second.stop("SIGTERM");
  }
});
