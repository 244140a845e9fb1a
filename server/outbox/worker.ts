import { performance } from "node:perf_hooks";

import type { Kysely } from "kysely";

import type { Database, Dialect, OutboxKind } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { type Claim, claimDue, fenced } from "./store.ts";
import { MAIL_CONNECTIONS } from "../mail/transport.ts";

type BackoffPolicy = {
  baseMs: number;
  capMs: number;
  /** The share of the ceiling a delay waits at least: 0 "full jitter", 0.5 "equal jitter", 1 none. */
  floor?: number;
};

/** Random between floor × ceiling and min(cap, base × 2^(attempt − 1)), so servers spread out. */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const floor = policy.floor ?? 0;
  return Math.floor(ceiling * (floor + (1 - floor) * random()));
}

/** When to try again after a temporary failure, or null to give up ('dead'). */
export function nextRetryAt(
  attempt: number,
  queuedAt: Date,
  now: Date,
  policy: Pick<OutboxWorkerOptions, "backoff" | "maxAttempts" | "retryForMs">,
  random: () => number = Math.random,
): Date | null {
  const end = queuedAt.getTime() + policy.retryForMs;
  if (attempt >= policy.maxAttempts || now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + backoffDelayMs(attempt, policy.backoff, random)));
}

/** How busy the event loop was since the last call: 0 idle, 1 never idle. */
export function eventLoopSampler(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const current = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(current, last);
    last = current;
    return utilization;
  };
}

/** Gives way to visitors while the loop is busier than `threshold`, for `maxWaitMs` at most. */
export function createPace(options: {
  threshold: number;
  maxWaitMs: number;
  now: () => number;
  sample: () => number;
}): () => boolean {
  let waitingSince: number | null = null;
  return () => {
    if (options.sample() < options.threshold) {
      waitingSince = null;
      return false;
    }
    const now = options.now();
    waitingSince ??= now;
    if (now - waitingSince >= options.maxWaitMs) {
      waitingSince = null;
      return false;
    }
    return true;
  };
}

export type OutboxWorkerOptions = {
  pollIntervalMs: number;
  /** Doubling waits while the database fails: a locked SQLite blocks the loop (decision 153). */
  failedPollCapMs: number;
  /** Per send; a slower one is aborted and counts as a failure. */
  timeoutMs: number;
  /** Must outlast timeoutMs: a row is claimed only when a slot is free to send it at once. */
  leaseMs: number;
  concurrency: number;
  maxAttempts: number;
  retryForMs: number;
  backoff: BackoffPolicy;
  random: () => number;
  now: () => Date;
  /** Skip a round while the event loop is busier than this (0 to 1; above 1 never). */
  yieldAbove: number;
  maxYieldMs: number;
};

export const DEFAULT_SPREADSHEET_OPTIONS: OutboxWorkerOptions = {
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

/** One send per pooled SMTP connection: a message never waits out its timeout in a queue. */
export const DEFAULT_MAIL_OPTIONS: OutboxWorkerOptions = {
  ...DEFAULT_SPREADSHEET_OPTIONS,
  concurrency: MAIL_CONNECTIONS,
  timeoutMs: 20_000,
  maxAttempts: 100,
  retryForMs: 24 * 60 * 60_000,
  backoff: { baseMs: 60_000, capMs: 4 * 60 * 60_000, floor: 0.5 },
};

type Outcome =
  | { kind: "sent" }
  /** `reason` goes to the log and the row: a short code, never a reply's text. */
  | { kind: "failed"; reason: string; permanent: boolean }
  /** The channel kept it back and has dealt with the row itself. */
  | { kind: "skipped"; reason: string };

type Channel<J extends Claim> = {
  kind: OutboxKind;
  sent: string;
  failed: string;
  load(claims: Claim[]): Promise<J[]>;
  /** Never throws: a failure is an outcome like any other. */
  send(job: J): Promise<Outcome>;
  onPermanentFailure?(job: J, reason: string): Promise<void>;
  /** Ids for log lines, never personal data. */
  describe(job: J): Record<string, unknown>;
};

export type WorkerDeps = {
  db: Kysely<Database>;
  dialect: Dialect;
  logger: Logger;
  options: Partial<OutboxWorkerOptions>;
};

/** A failure's code, or its name: never its message, which may quote an address. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code =
      (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === "string" ? code : error.name;
  }
  return "unknown error";
}

export function timedOut(options: OutboxWorkerOptions): Outcome {
  return { kind: "failed", reason: `timed out after ${options.timeoutMs} ms`, permanent: false };
}

/** Claims a row only when a slot is free, and commits each outcome as it arrives (at least once). */
export function createWorker<J extends Claim>(
  deps: WorkerDeps & { options: OutboxWorkerOptions; channel: Channel<J> },
) {
  const { db, dialect, logger, options, channel } = deps;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let wokenDuringLook = false;
  let yielding = false;
  let failedPolls = 0;
  const sends = new Set<Promise<void>>();
  const mustWait = createPace({
    threshold: options.yieldAbove,
    maxWaitMs: options.maxYieldMs,
    // Real time, not the business clock tests may freeze: this is about the event loop.
    now: () => Date.now(),
    sample: eventLoopSampler(),
  });

  async function record(job: J, outcome: Outcome): Promise<void> {
    const log = { ...channel.describe(job), attempt: job.attempt };
    if (outcome.kind === "skipped") {
      logger.info({ ...log, reason: outcome.reason }, `${channel.failed}: not sent`);
      return;
    }
    const now = options.now();
    if (outcome.kind === "sent") {
      await fenced(db, job)
        .set({
          status: "delivered",
          delivered_at: now.toISOString(),
          last_error: null,
          sending_until: null,
        })
        .execute();
      logger.info(log, channel.sent);
      return;
    }
    const retryAt = outcome.permanent
      ? null
      : nextRetryAt(job.attempt, new Date(job.createdAt), now, options, options.random);
    if (outcome.permanent) await channel.onPermanentFailure?.(job, outcome.reason);
    await fenced(db, job)
      .set({
        last_error: outcome.reason,
        sending_until: null,
        ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : { status: "dead" as const }),
      })
      .execute();
    const failure = { ...log, reason: outcome.reason };
    if (retryAt !== null) {
      const retryInMs = retryAt.getTime() - now.getTime();
      logger.warn({ ...failure, retryInMs }, `${channel.failed}; will retry`);
    } else {
      const why = outcome.permanent ? "refused for good" : "gave up";
      logger.error(failure, `${channel.failed}; ${why}, the outbox row is dead`);
    }
  }

  function begin(job: J) {
    const send: Promise<void> = channel
      .send(job)
      .then((outcome) => record(job, outcome))
      .catch((error: unknown) =>
        // Recording failed (database trouble): the lease brings the row back.
        logger.warn(
          { ...channel.describe(job), reason: describeError(error) },
          "outbox update failed",
        ),
      )
      .finally(() => {
        sends.delete(send);
        wake();
      });
    sends.add(send);
  }

  /** Claims as many due rows as there are free slots; true when every slot was taken. */
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
    if (mustWait()) {
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
      next = backoffDelayMs(failedPolls + 1, {
        baseMs: options.pollIntervalMs,
        capMs: options.failedPollCapMs,
        floor: 1,
      });
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

  /** Looks for due rows now rather than at the next poll. */
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
