/**
 * A thread that runs the staff console's store (server/console/store.ts) against an e2e
 * server's database, for tests/support/console.ts: seeding goes through the functions the
 * console itself uses, while the specs' helpers stay synchronous (they block on its answer).
 */
import { type MessagePort, parentPort } from "node:worker_threads";

import { createStaffStore } from "../../server/console/store.ts";
import { openDatabase } from "../../server/db/database.ts";
import type { DatabaseHandle } from "../../server/db/schema.ts";
import { parseEnv } from "../../server/env.ts";
import { createLogger } from "../../server/logger.ts";

type Call = {
  signal: Int32Array;
  dir: string;
  /** The store's clock, as an ISO time; absent: now. */
  at?: string;
  method: string;
  args: unknown[];
};

const handles = new Map<string, Promise<DatabaseHandle>>();

async function run({ dir, at, method, args }: Call): Promise<unknown> {
  let handle = handles.get(dir);
  if (!handle) {
    handle = openDatabase(parseEnv({ DATA_DIR: dir }), createLogger("silent"), {
      busyTimeoutMs: 5000,
    });
    handles.set(dir, handle);
  }
  const store = createStaffStore({
    ...(await handle),
    now: () => (at ? new Date(at) : new Date()),
  });
  const operation = store[method as keyof typeof store] as (...a: unknown[]) => Promise<unknown>;
  return operation(...args);
}

parentPort?.once("message", (port: MessagePort) => {
  port.on("message", (call: Call) => {
    void run(call)
      .then(
        (value) => port.postMessage({ value }),
        (error: unknown) => port.postMessage({ error: String(error) }),
      )
      .finally(() => {
        Atomics.store(call.signal, 0, 1);
        Atomics.notify(call.signal, 0);
      });
  });
});
