import type { Kysely } from "kysely";

import type { Database, Dialect, OutboxKind } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { backoffDelayMs, type BackoffPolicy } from "./backoff.ts";
import { createPace, eventLoopSampler } from "./pace.ts";
import { forwardedBody, statusBody } from "./payload.ts";
import { sign, signatureHeaders, signedUrl } from "./signature.ts";
import {
  type Claim,
  claimDue,
  type Delivery,
  mailDeliveries,
  markDelivered,
  markFailed,
  sheetDeliveries,
} from "./store.ts";
import { composeMail } from "../mail/compose.ts";
import type { Mailer } from "../mail/transport.ts";

export type OutboxWorkerOptions = {
  /** How often to look for due rows when there is nothing to do. */
  pollIntervalMs: number;
  /**
   * While the database keeps failing (locked, full, gone), each look waits twice as long as
   * the last, up to this: on SQLite a locked database blocks the event loop for the whole
   * busy timeout, so polling every second would stall visitors' requests every second.
   */
  failedPollCapMs: number;
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
  /**
   * Give way to visitors: skip a round while the event loop was busier than this
   * (0 to 1; above 1 never waits), for at most `maxYieldMs` in a row (server/outbox/pace.ts).
   */
  yieldAbove: number;
  maxYieldMs: number;
};

/** Spreadsheet deliveries. */
export const DEFAULT_OUTBOX_OPTIONS: OutboxWorkerOptions = {
  pollIntervalMs: 1_000,
  failedPollCapMs: 30_000,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batchSize: 20,
  maxAttempts: 16,
  backoff: { baseMs: 2_000, capMs: 30 * 60_000 },
  yieldAbove: 0.7,
  maxYieldMs: 2_000,
  random: Math.random,
  now: () => new Date(),
};

/** Emails: an SMTP exchange is slower than a webhook, and a day of retries is enough. */
export const DEFAULT_MAIL_OPTIONS: OutboxWorkerOptions = {
  ...DEFAULT_OUTBOX_OPTIONS,
  batchSize: 50,
  timeoutMs: 20_000,
  leaseMs: 30_000,
  maxAttempts: 12,
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

/** The part that differs between kinds: loading what claimed rows need, and sending one. */
type Channel<J extends Pick<Claim, "outboxId" | "attempt">> = {
  kind: OutboxKind;
  /** Words for the log: "registration forwarded", "email sent". */
  sent: string;
  failed: string;
  load(claims: Claim[]): Promise<J[]>;
  /** Resolves when the receiver took it; rejects (or returns a reason) when it did not. */
  send(job: J): Promise<string | null>;
  /** Ids for log lines: never personal data. */
  describe(job: J): Record<string, unknown>;
};

/**
 * Delivers one kind of outbox row at least once: each row is retried with
 * exponential backoff and full jitter until it is accepted, and the state lives in
 * the database, so a restart picks up where it left off.
 */
function createWorker<J extends Pick<Claim, "outboxId" | "attempt">>(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  options: OutboxWorkerOptions;
  channel: Channel<J>;
}): OutboxWorker {
  const { db, dialect, logger, options, channel } = deps;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let wokenDuringCycle = false;
  let yielding = false;
  /** Looks in a row that failed: the next waits pollIntervalMs * 2^failedPolls, capped. */
  let failedPolls = 0;
  const sample = eventLoopSampler();
  const pace = createPace({
    threshold: options.yieldAbove,
    maxWaitMs: options.maxYieldMs,
    // Real time, not the business clock tests may freeze: this is about the event loop.
    now: () => Date.now(),
    sample,
  });

  type Outcome = { job: J; failure: string | null };

  /** Sends one; never throws: a failure is an outcome like any other. */
  async function attempt(job: J): Promise<Outcome> {
    try {
      return { job, failure: await channel.send(job) };
    } catch (error) {
      return { job, failure: describeFailure(error, options.timeoutMs) };
    }
  }

  /**
   * Records a batch's outcomes in one transaction: one commit (one fsync on SQLite)
   * per batch rather than per row, so a busy outbox does not crowd out the writes of
   * new registrations. Each update is still fenced by its claim's attempt.
   */
  async function record(outcomes: Outcome[]): Promise<void> {
    const now = options.now();
    const lines: Array<() => void> = [];
    await db.transaction().execute(async (trx) => {
      for (const { job, failure } of outcomes) {
        const log = { ...channel.describe(job), attempt: job.attempt };
        if (failure === null) {
          await markDelivered(trx, job, now);
          lines.push(() => logger.info(log, channel.sent));
        } else if (job.attempt >= options.maxAttempts) {
          await markFailed(trx, job, { error: failure, retryAt: null });
          lines.push(() =>
            logger.error(
              { ...log, reason: failure },
              `${channel.failed}; gave up, the outbox row is dead`,
            ),
          );
        } else {
          const delayMs = backoffDelayMs(job.attempt, options.backoff, options.random);
          await markFailed(trx, job, {
            error: failure,
            retryAt: new Date(now.getTime() + delayMs),
          });
          lines.push(() =>
            logger.warn(
              { ...log, reason: failure, retryInMs: delayMs },
              `${channel.failed}; will retry`,
            ),
          );
        }
      }
    });
    for (const line of lines) line();
  }

  async function runOnce(): Promise<number> {
    const claims = await claimDue(db, dialect, {
      kind: channel.kind,
      now: options.now(),
      leaseMs: options.leaseMs,
      limit: options.batchSize,
    });
    if (claims.length === 0) return 0;
    const jobs = await channel.load(claims);
    const outcomes = await Promise.all(jobs.map(attempt));
    try {
      await record(outcomes);
    } catch (error) {
      // Recording failed (database trouble): the lease brings the rows back, and they
      // are sent again (at least once).
      logger.warn(
        { reason: describeFailure(error, options.timeoutMs), rows: outcomes.length },
        "outbox update failed",
      );
    }
    return claims.length;
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
    if (pace.shouldWait()) {
      // Busy serving requests: look again after a poll interval, whatever wakes us.
      current = undefined;
      yielding = true;
      schedule(next);
      return;
    }
    yielding = false;
    try {
      // A full batch suggests more are due: go again at once.
      if ((await runOnce()) >= options.batchSize) next = 0;
      failedPolls = 0;
    } catch (error) {
      failedPolls += 1;
      next = Math.min(options.failedPollCapMs, options.pollIntervalMs * 2 ** failedPolls);
      logger.warn(
        { kind: channel.kind, reason: describeFailure(error, options.timeoutMs), retryInMs: next },
        "outbox poll failed",
      );
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
      if (stopped || yielding) return;
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

/**
 * Delivers spreadsheet rows (the registration, then its later status) to the clinic's
 * endpoint, each signed with SHEETS_WEBHOOK_SECRET (docs/decisions/078).
 */
export function createOutboxWorker(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  url: string;
  secret: string;
  logger: Logger;
  options: OutboxWorkerOptions;
}): OutboxWorker {
  const { db, url, secret, options } = deps;
  return createWorker<Delivery>({
    ...deps,
    channel: {
      kind: "sheet",
      sent: "registration forwarded",
      failed: "forwarding failed",
      load: (claims) => sheetDeliveries(db, claims),
      describe: (delivery) => ({
        registrationId: delivery.topic === "status" ? delivery.status.id : delivery.registration.id,
        ...(delivery.topic === "status" ? { topic: "status" } : {}),
      }),
      async send(delivery) {
        const body =
          delivery.topic === "status"
            ? statusBody(delivery.status)
            : forwardedBody(delivery.registration);
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
        if (response.ok && refused === null) return null;
        return refused ?? `HTTP ${response.status}`;
      },
    },
  });
}

/**
 * Sends the emails (docs/decisions/088): the confirmation each registration queues,
 * and announcements. Links come from `siteOrigin`, read when each message is built.
 */
export function createMailWorker(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  siteOrigin: string;
  linkKey: string;
  logger: Logger;
  options: OutboxWorkerOptions;
}): OutboxWorker {
  const { db, mailer, siteOrigin, linkKey, logger, options } = deps;
  return createWorker({
    db,
    dialect: deps.dialect,
    logger,
    options,
    channel: {
      kind: "mail",
      sent: "email sent",
      failed: "email failed",
      async load(claims) {
        const { deliveries, dropped } = await mailDeliveries(db, claims);
        for (const outboxId of dropped) {
          logger.info({ outboxId }, "email not sent: the address has unsubscribed");
        }
        return deliveries;
      },
      describe: (job) => ({
        outboxId: job.outboxId,
        topic: job.topic,
        registrationId: job.registration.id,
      }),
      async send(job) {
        const message = composeMail(job, { siteOrigin, linkKey });
        await Promise.race([
          mailer.send(message),
          new Promise((_, reject) =>
            setTimeout(
              () => reject(Object.assign(new Error("timed out"), { name: "TimeoutError" })),
              options.timeoutMs,
            ).unref(),
          ),
        ]);
        return null;
      },
    },
  });
}
