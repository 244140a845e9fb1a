/**
 * The messages this process has handed to the transport and not yet heard back about,
 * so that an erasure or unsubscribe can stop them before it returns (docs/decisions/095).
 */
const sending = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

/** Registers a send by its outbox id until `done` settles. */
export function trackSend(outboxId: string, controller: AbortController, done: Promise<unknown>) {
  sending.set(outboxId, { controller, done });
  void done
    .finally(() => {
      if (sending.get(outboxId)?.done === done) sending.delete(outboxId);
    })
    .catch(() => {});
}

/** An outbox row the gate marked in flight, and until when (`outbox.sending_until`). */
export type InFlight = { outboxId: string; sendingUntil: string };

/**
 * Stops these sends and returns once none of them can still reach the mail server: a send
 * in this process is aborted and awaited; one in another process (another app server, or
 * the server while this is the CLI) is aborted by its own timeout by `sendingUntil`, so
 * this waits until then.
 */
export async function stopSends(rows: readonly InFlight[]): Promise<void> {
  let latest = 0;
  const local: Array<Promise<unknown>> = [];
  for (const row of rows) {
    const entry = sending.get(row.outboxId);
    if (entry) {
      entry.controller.abort(new Error("stopped: erased or unsubscribed"));
      local.push(entry.done.catch(() => {}));
    } else {
      latest = Math.max(latest, Date.parse(row.sendingUntil));
    }
  }
  await Promise.all(local);
  // At most the mail timeout in practice; bounded in case of a wildly wrong clock.
  const wait = Math.min(latest - Date.now(), 5 * 60_000);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
