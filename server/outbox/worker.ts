import type { Kysely } from "kysely";

import type { Database, Dialect, OutboxKind } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { type BackoffPolicy, nextRetryAt } from "./backoff.ts";
import { createPace, eventLoopSampler } from "./pace.ts";
import { type Claim, claimDue, markDelivered, markFailed } from "./store.ts";
import { MAIL_CONNECTIONS } from "../mail/transport.ts";

export type OutboxWorkerOptions = {
  /** How often to look for due rows when there is nothing to do. */
  pollIntervalMs: number;
  /**
   * While the database keeps failing (locked, full, gone), each look waits twice as long as
   * the last, up to this: on SQLite a locked database blocks the event loop for the whole
   * busy timeout, so polling every second would stall visitors' requests every second.
   */
  failedPollCapMs: number;
  /** Per send; a slower receiver counts as a failure, and the send is aborted. */
  timeoutMs: number;
  /**
   * How long a claimed row stays invisible to other workers. Must exceed timeoutMs: a row
   * is claimed only when a slot is free to send it at once.
   */
  leaseMs: number;
  /** Sends under way at once; each outcome is recorded as it arrives. */
  concurrency: number;
  /** After this many failed attempts the row goes to 'dead' until someone retries it. */
  maxAttempts: number;
  /** Temporary failures are retried for this long after the row was queued, then 'dead'. */
  retryForMs: number;
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
  concurrency: 20,
  maxAttempts: 16,
  retryForMs: Infinity,
  backoff: { baseMs: 2_000, capMs: 30 * 60_000 },
  yieldAbove: 0.7,
  maxYieldMs: 2_000,
  random: Math.random,
  now: () => new Date(),
};

/**
 * Emails: one send per pooled SMTP connection (server/mail/transport.ts), so a message is
 * never queued behind others inside nodemailer where its timeout would run; temporary
 * failures are retried for a day, from 1 minute apart up to 4 hours (docs/operations.md).
 */
export const DEFAULT_MAIL_OPTIONS: OutboxWorkerOptions = {
  ...DEFAULT_OUTBOX_OPTIONS,
  concurrency: MAIL_CONNECTIONS,
  timeoutMs: 20_000,
  leaseMs: 60_000,
  maxAttempts: 100,
  retryForMs: 24 * 60 * 60_000,
  backoff: { baseMs: 60_000, capMs: 4 * 60 * 60_000, floor: 0.5 },
};

export type OutboxWorker = {
  start(): void;
  /** Looks for due rows now rather than at the next poll (called after a registration). */
  wake(): void;
  /** Stops looking and waits for the sends under way. */
  stop(): Promise<void>;
};

/** What one send came to. */
export type Outcome =
  | { kind: "sent" }
  /** `reason` is a short code for the log and the row: never a reply's text. */
  | { kind: "failed"; reason: string; permanent: boolean }
  /** The channel kept it back and has dealt with the row itself. */
  | { kind: "skipped"; reason: string };

export type Job = Pick<Claim, "outboxId" | "attempt" | "createdAt">;

/** The part that differs between channels: loading what claimed rows need, and sending one. */
export type Channel<J extends Job> = {
  kind: OutboxKind;
  /** Words for the log: "spreadsheet delivery done", "email sent". */
  sent: string;
  failed: string;
  load(claims: Claim[]): Promise<J[]>;
  /** Never throws: a failure is an outcome like any other. */
  send(job: J): Promise<Outcome>;
  /** Called in the same breath as a permanent failure is recorded (suppression). */
  onPermanentFailure?(job: J, reason: string): Promise<void>;
  /** Ids for log lines: never personal data. */
  describe(job: J): Record<string, unknown>;
};

/** A short reason for a failure that is not the receiver's answer: its code, or its name. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code =
      (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" ? code : error.name;
  }
  return "unknown error";
}

/**
 * Delivers one kind of outbox row: up to `concurrency` sends at once, each row claimed
 * only when a slot is free and its outcome committed as soon as it arrives, so a crash
 * can repeat only the sends under way at that instant. Temporary failures are retried
 * with backoff; the state lives in the database, so a restart picks up where it left off.
 */
export function createWorker<J extends Job>(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  options: OutboxWorkerOptions;
  channel: Channel<J>;
}): OutboxWorker {
  const { db, dialect, logger, options, channel } = deps;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let wokenDuringLook = false;
  let yielding = false;
  /** Looks in a row that failed: the next waits pollIntervalMs * 2^failedPolls, capped. */
  let failedPolls = 0;
  const sends = new Set<Promise<void>>();
  const sample = eventLoopSampler();
  const pace = createPace({
    threshold: options.yieldAbove,
    maxWaitMs: options.maxYieldMs,
    // Real time, not the business clock tests may freeze: this is about the event loop.
    now: () => Date.now(),
    sample,
  });

  async function record(job: J, outcome: Outcome): Promise<void> {
    const log = { ...channel.describe(job), attempt: job.attempt };
    if (outcome.kind === "skipped") {
      logger.info({ ...log, reason: outcome.reason }, `${channel.failed}: not sent`);
      return;
    }
    const now = options.now();
    if (outcome.kind === "sent") {
      await markDelivered(db, job, now);
      logger.info(log, channel.sent);
      return;
    }
    const retryAt = outcome.permanent
      ? null
      : nextRetryAt(job.attempt, new Date(job.createdAt), now, options, options.random);
    if (outcome.permanent) await channel.onPermanentFailure?.(job, outcome.reason);
    await markFailed(db, job, { error: outcome.reason, retryAt });
    if (retryAt === null) {
      logger.error(
        { ...log, reason: outcome.reason },
        `${channel.failed}; ${outcome.permanent ? "refused for good" : "gave up"}, the outbox row is dead`,
      );
    } else {
      logger.warn(
        { ...log, reason: outcome.reason, retryInMs: retryAt.getTime() - now.getTime() },
        `${channel.failed}; will retry`,
      );
    }
  }

  async function deliver(job: J): Promise<void> {
    const outcome = await channel.send(job);
    try {
      await record(job, outcome);
    } catch (error) {
      // Recording failed (database trouble): the lease brings the row back.
      logger.warn(
        { ...channel.describe(job), reason: describeError(error) },
        "outbox update failed",
      );
    }
  }

  function begin(job: J) {
    const send: Promise<void> = deliver(job).finally(() => {
      sends.delete(send);
      wake();
    });
    sends.add(send);
  }

  /** Claims as many due rows as there are free slots, and starts sending them. */
  async function fill(): Promise<boolean> {
    const free = options.concurrency - sends.size;
    if (free <= 0) return false;
    const claims = await claimDue(db, dialect, {
      kind: channel.kind,
      now: options.now(),
      leaseMs: options.leaseMs,
      limit: free,
    });
    if (claims.length === 0) return false;
    for (const job of await channel.load(claims)) begin(job);
    // Every free slot taken suggests more are due.
    return claims.length === free;
  }

  function schedule(delayMs: number) {
    if (stopped || timer || looking) return;
    timer = setTimeout(() => {
      timer = undefined;
      looking = look();
    }, delayMs);
    timer.unref();
  }

  async function look(): Promise<void> {
    let next = options.pollIntervalMs;
    if (pace.shouldWait()) {
      // Busy serving requests: look again after a poll interval, whatever wakes us.
      looking = undefined;
      yielding = true;
      schedule(next);
      return;
    }
    yielding = false;
    try {
      if (await fill()) next = 0;
      failedPolls = 0;
    } catch (error) {
      failedPolls += 1;
      next = Math.min(options.failedPollCapMs, options.pollIntervalMs * 2 ** failedPolls);
      logger.warn(
        { kind: channel.kind, reason: describeError(error), retryInMs: next },
        "outbox poll failed",
      );
    }
    looking = undefined;
    if (wokenDuringLook) {
      wokenDuringLook = false;
      next = 0;
    }
    // With every slot busy, the next send to finish looks again.
    if (sends.size < options.concurrency) schedule(next);
  }

  function wake() {
    if (stopped || yielding) return;
    if (looking) {
      wokenDuringLook = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    schedule(0);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await looking;
      await Promise.all([...sends]);
    },
  };
}
