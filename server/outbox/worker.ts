import type { Kysely } from "kysely";

import type { Database, Dialect } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { backoffDelayMs, type BackoffPolicy } from "./backoff.ts";
import { forwardedBody } from "./payload.ts";
import { sign, signatureHeaders, signedUrl } from "./signature.ts";
import { claimDue, type Delivery, markDelivered, markFailed } from "./store.ts";

export type OutboxWorkerOptions = {
  /** How often to look for due rows when there is nothing to do. */
  pollIntervalMs: number;
  /** Per request; a slower receiver counts as a failure. */
  timeoutMs: number;
  /** How long a claimed row stays invisible to other workers. Must exceed timeoutMs. */
  leaseMs: number;
  batchSize: number;
  /** After this many failed attempts the row goes to 'dead' until someone retries it. */
  maxAttempts: number;
  backoff: BackoffPolicy;
  random: () => number;
  now: () => Date;
};

export const DEFAULT_OUTBOX_OPTIONS: OutboxWorkerOptions = {
  pollIntervalMs: 1_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batchSize: 20,
  maxAttempts: 16,
  backoff: { baseMs: 2_000, capMs: 30 * 60_000 },
  random: Math.random,
  now: () => new Date(),
};

export type OutboxWorker = {
  start(): void;
  /** Looks for due rows now rather than at the next poll (called after a registration). */
  wake(): void;
  /** Stops polling and waits for deliveries in flight. */
  stop(): Promise<void>;
};

/** A short reason for the log and the outbox row: never the response body, never personal data. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return `timed out after ${timeoutMs} ms`;
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" ? `${error.message} (${code})` : error.message;
  }
  return "unknown error";
}

/**
 * A receiver that cannot choose its HTTP status (Google Apps Script answers 200
 * to everything) refuses with `{"ok": false, "error": "…"}`. Only a short token
 * is kept from it: the log and the outbox row never hold a response body.
 */
function refusal(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { ok?: unknown }).ok !== false)
    return null;
  const reason = (parsed as { error?: unknown }).error;
  return `refused by the receiver: ${typeof reason === "string" && /^[a-z][a-z-]{0,39}$/.test(reason) ? reason : "no reason given"}`;
}

/**
 * Delivers outbox rows to the clinic's spreadsheet endpoint, at least once:
 * each row is retried with exponential backoff and full jitter until a 2xx, and
 * the state lives in the database, so a restart picks up where it left off.
 */
export function createOutboxWorker(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  url: string;
  /** SHEETS_WEBHOOK_SECRET: every delivery is signed with it (docs/decisions/078). */
  secret: string;
  logger: Logger;
  options: OutboxWorkerOptions;
}): OutboxWorker {
  const { db, dialect, url, secret, logger, options } = deps;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let wokenDuringCycle = false;

  async function deliver(delivery: Delivery): Promise<void> {
    const log = { registrationId: delivery.registration.id, attempt: delivery.attempt };
    let failure: string;
    try {
      const body = forwardedBody(delivery.registration);
      const signed = sign(secret, body, options.now());
      const response = await fetch(signedUrl(url, signed), {
        method: "POST",
        headers: { "content-type": "application/json", ...signatureHeaders(signed) },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // Read to the end, so the connection can be reused and a refusal in a 200 seen.
      const answer = await response.text().catch(() => "");
      const refused = response.ok ? refusal(answer) : null;
      if (response.ok && refused === null) {
        await markDelivered(db, delivery, options.now());
        logger.info(log, "registration forwarded");
        return;
      }
      failure = refused ?? `HTTP ${response.status}`;
    } catch (error) {
      failure = describeFailure(error, options.timeoutMs);
    }
    if (delivery.attempt >= options.maxAttempts) {
      await markFailed(db, delivery, { error: failure, retryAt: null });
      logger.error({ ...log, reason: failure }, "forwarding gave up; outbox row is dead");
      return;
    }
    const delayMs = backoffDelayMs(delivery.attempt, options.backoff, options.random);
    const retryAt = new Date(options.now().getTime() + delayMs);
    await markFailed(db, delivery, { error: failure, retryAt });
    logger.warn({ ...log, reason: failure, retryInMs: delayMs }, "forwarding failed; will retry");
  }

  async function runOnce(): Promise<number> {
    const deliveries = await claimDue(db, dialect, {
      now: options.now(),
      leaseMs: options.leaseMs,
      limit: options.batchSize,
    });
    const results = await Promise.allSettled(deliveries.map(deliver));
    for (const result of results) {
      if (result.status === "rejected") {
        // Recording the outcome failed (database trouble); the lease brings the row back.
        logger.warn(
          { reason: describeFailure(result.reason, options.timeoutMs) },
          "outbox update failed",
        );
      }
    }
    return deliveries.length;
  }

  function schedule(delayMs: number) {
    if (stopped || timer || current) return;
    timer = setTimeout(() => {
      timer = undefined;
      current = cycle();
    }, delayMs);
    timer.unref();
  }

  async function cycle(): Promise<void> {
    let next = options.pollIntervalMs;
    try {
      // A full batch suggests more are due: go again at once.
      if ((await runOnce()) >= options.batchSize) next = 0;
    } catch (error) {
      logger.warn({ reason: describeFailure(error, options.timeoutMs) }, "outbox poll failed");
    }
    current = undefined;
    if (wokenDuringCycle) {
      wokenDuringCycle = false;
      next = 0;
    }
    schedule(next);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (stopped) return;
      if (current) {
        wokenDuringCycle = true;
        return;
      }
      clearTimeout(timer);
      timer = undefined;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await current;
    },
  };
}
