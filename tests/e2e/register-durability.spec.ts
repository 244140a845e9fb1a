import { randomUUID } from "node:crypto";

import { expect, test } from "@playwright/test";

import { rowsPerKey } from "../durability/registrations-db.ts";
import { type ServerProcess, startServer } from "../resilience/server-process.ts";

/**
 * The acceptance test of issue 5: a registration the site acknowledged is never lost.
 * Start the production server, submit registrations concurrently, SIGKILL it while
 * requests are still in flight, restart it on the same data directory, and check
 * that every acknowledged registration is there exactly once.
 */
const total = 300;
const killAfterAcknowledged = 150;
const concurrency = 24;

type Submission = { key: string; email: string };

function formFor(i: number, runId: string, key: string) {
  return new URLSearchParams({
    name: `Durability Test ${i}`,
    email: `durable-${runId}-${i}@example.co.uk`,
    phone: "",
    message: `Registration ${i} of ${total}`,
    website: "",
    idempotencyKey: key,
    clientTimestamp: new Date().toISOString(),
  });
}

async function submit(server: ServerProcess, body: URLSearchParams): Promise<boolean> {
  const res = await fetch(`${server.url}/register-interest`, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  const html = await res.text();
  return res.status === 200 && html.includes("Thank you for registering");
}

test("every acknowledged registration survives SIGKILL and a restart, exactly once", async () => {
  test.setTimeout(120_000);
  const runId = randomUUID().slice(0, 8);
  const first = await startServer();
  const acknowledged: Submission[] = [];
  let next = 0;
  let killed = false;
  let failedWhileKilled = 0;

  const worker = async () => {
    while (!killed && next < total) {
      const i = next++;
      const key = randomUUID();
      const body = formFor(i, runId, key);
      try {
        if (await submit(first, body)) {
          acknowledged.push({ key, email: body.get("email") ?? "" });
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
    const missing = acknowledged.filter((s) => stored.get(s.key)?.count !== 1);
    expect(missing, "acknowledged registrations missing after the crash").toEqual([]);
    for (const s of acknowledged) expect(stored.get(s.key)?.email).toBe(s.email);
    // Nothing beyond what was sent, and no key twice.
    expect(stored.size).toBeLessThanOrEqual(next);
    expect([...stored.values()].every((row) => row.count === 1)).toBe(true);

    // A visitor's browser retrying an acknowledged registration after the restart is
    // answered as a success and stores nothing new.
    const retried = acknowledged.slice(0, 20);
    for (const [i, s] of retried.entries()) {
      expect(await submit(second, formFor(i, runId, s.key))).toBe(true);
    }
    expect(rowsPerKey(second.dataDir).size).toBe(stored.size);
    console.log(
      `durability: ${acknowledged.length} acknowledged, ${stored.size} stored, ${failedWhileKilled} cut off by SIGKILL`,
    );
  } finally {
    await second.stop("SIGTERM");
  }
});
