import diagnostics_channel from "node:diagnostics_channel";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

import type { Db, Dialect, OutboxKind } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { type Claim, claimDue, fenced, release } from "./store.ts";
import { createThrottle } from "./throttle.ts";
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

/** How often the delay monitor looks; what it records beyond this is lateness. */
const DELAY_RESOLUTION_MS = 10;
/** What `sample()` answers while visitors keep the loop this busy: beyond any threshold. */
const SATURATED_MS = 10_000;

/**
 * How late the event loop runs what visitors ask for: the 99th percentile, in ms, over the
 * last full `windowMs`, counted only while HTTP requests arrive (none: no one is waiting).
 * Unlike the loop's utilisation, the worker's own sends (short slices between waits on the
 * network) barely move it. Sampled for another thread (the mail thread's host), whose loop
 * does no sending, `busyUtilisation` also counts: a loop busy that share of a window keeps
 * time yet makes requests queue, and the answer is then `SATURATED_MS`.
 */
export function visitorDelaySampler(windowMs = 1_000, busyUtilisation = Infinity) {
  const histogram = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  let windowStart = performance.now();
  let utilisationFrom = performance.eventLoopUtilization();
  let lateMs = 0;
  let lastRequestAt = -Infinity;
  const onRequest = () => {
    lastRequestAt = performance.now();
  };
  return {
    sample(): number {
      const now = performance.now();
      if (now - windowStart >= windowMs) {
        const p99 = histogram.count > 0 ? histogram.percentile(99) / 1e6 : DELAY_RESOLUTION_MS;
        const busy = performance.eventLoopUtilization(utilisationFrom).utilization;
        lateMs = busy >= busyUtilisation ? SATURATED_MS : Math.max(0, p99 - DELAY_RESOLUTION_MS);
        histogram.reset();
        utilisationFrom = performance.eventLoopUtilization();
        windowStart = now;
      }
      return now - lastRequestAt < windowMs ? lateMs : 0;
    },
    start() {
      histogram.enable();
      windowStart = performance.now();
      utilisationFrom = performance.eventLoopUtilization();
      diagnostics_channel.subscribe("http.server.request.start", onRequest);
    },
    stop() {
      histogram.disable();
      diagnostics_channel.unsubscribe("http.server.request.start", onRequest);
    },
  };
}

/** Gives way to visitors while `sample()` is above `threshold`, for `maxWaitMs` at most. */
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

/**
 * Whether to skip a round for visitors' sake, from the delay of the event loop that serves
 * them while they ask: this thread's, or another's (`late`, for the mail thread).
 */
function visitorsFirst(
  options: Pick<OutboxWorkerOptions, "yieldAboveDelayMs" | "maxYieldMs">,
  late?: () => number,
) {
  const delay = late ? { sample: late, start() {}, stop() {} } : visitorDelaySampler();
  const mustWait = createPace({
    threshold: options.yieldAboveDelayMs,
    maxWaitMs: options.maxYieldMs,
    // Real time, not the business clock tests may freeze: this is about the event loop.
    now: () => Date.now(),
    sample: delay.sample,
  });
  return { ...delay, mustWait };
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
  /** Skip a round while visitors' requests meet a loop this late, in ms (p99 over 1 s; decision 184). */
  yieldAboveDelayMs: number;
  maxYieldMs: number;
  /** Claim a slot's worth ahead: only for a channel whose send checks again that it may go. */
  claimAhead: boolean;
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
  yieldAboveDelayMs: 50,
  maxYieldMs: 2_000,
  // Its rows carry the person's details, which an erasure meanwhile must stop.
  claimAhead: false,
  random: Math.random,
  now: () => new Date(),
};

/** One send per pooled SMTP connection (MAIL_CONNECTIONS): a message never waits in a queue. */
export const DEFAULT_MAIL_OPTIONS: OutboxWorkerOptions = {
  ...DEFAULT_SPREADSHEET_OPTIONS,
  concurrency: MAIL_CONNECTIONS,
  timeoutMs: 20_000,
  maxAttempts: 100,
  retryForMs: 24 * 60 * 60_000,
  backoff: { baseMs: 60_000, capMs: 4 * 60 * 60_000, floor: 0.5 },
  // The handoff gate checks each email again as it goes.
  claimAhead: true,
};

type Outcome =
  | { kind: "sent" }
  /** `reason` goes to the log and the row: a short code, never a reply's text. */
  | { kind: "failed"; reason: string; permanent: boolean; slowDown?: boolean }
  /** The channel kept it back and has dealt with the row itself. */
  | { kind: "skipped"; reason: string };

type Channel<J extends Claim> = {
  kind: OutboxKind;
  /** Who is on the other end, for the log: "the mail server". */
  peer: string;
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
  db: Db;
  dialect: Dialect;
  logger: Logger;
  options: Partial<OutboxWorkerOptions>;
  /** How late visitors' event loop runs, when it is another thread's (the mail thread's host). */
  visitorsLate?: () => number;
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

type WorkerParts<J extends Claim> = Pick<WorkerDeps, "db" | "logger"> & {
  options: OutboxWorkerOptions;
  channel: Channel<J>;
  throttle: ReturnType<typeof createThrottle>;
};

/** A 421 or 451 slows the whole channel; logged once when it begins (decision 184). */
function reportPace<J extends Claim>(
  { logger, options, channel, throttle }: WorkerParts<J>,
  outcome: Outcome,
) {
  const now = Date.now();
  if (outcome.kind === "sent") {
    if (throttle.sent(now) === "recovered") {
      logger.info(
        { kind: channel.kind, connections: options.concurrency },
        `${channel.peer} takes our full pace again`,
      );
    }
  } else if (outcome.kind === "failed" && outcome.slowDown) {
    const step = throttle.slowDown(now);
    if (step === "ignored") return;
    const detail = {
      kind: channel.kind,
      reason: outcome.reason,
      pauseMs: options.backoff.baseMs,
      connections: throttle.allowed(now + options.backoff.baseMs),
    };
    // Once when it begins; the answers that follow are in each email's own "will retry" line.
    if (step === "began") {
      logger.warn(detail, `${channel.peer} asked us to slow down: pausing, then sending slower`);
    } else logger.info(detail, `${channel.peer} asked us to slow down again`);
  }
}

/** Commits an outcome, fenced by its claim, and logs it. */
async function recordOutcome<J extends Claim>(
  { db, logger, options, channel }: WorkerParts<J>,
  job: J,
  outcome: Outcome,
): Promise<void> {
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

async function claimMore<J extends Claim>(
  { db, options, channel }: WorkerParts<J>,
  dialect: Dialect,
  limit: number,
): Promise<J[]> {
  const claims = await claimDue(db, dialect, {
    kind: channel.kind,
    now: options.now(),
    leaseMs: options.leaseMs,
    limit,
  });
  return claims.length > 0 ? channel.load(claims) : [];
}

/** Sends, then records what happened; never rejects. */
async function sendOne<J extends Claim>(parts: WorkerParts<J>, job: J): Promise<void> {
  try {
    const outcome = await parts.channel.send(job);
    reportPace(parts, outcome);
    await recordOutcome(parts, job, outcome);
  } catch (error) {
    // Recording failed (database trouble): the lease brings the row back.
    parts.logger.warn(
      { ...parts.channel.describe(job), reason: describeError(error) },
      "outbox update failed",
    );
  }
}

/** How long to wait after the `failures`th poll in a row failed (a locked SQLite blocks the loop). */
function pollFailed<J extends Claim>(
  { logger, options, channel }: WorkerParts<J>,
  failures: number,
  error: unknown,
): number {
  const retryInMs = backoffDelayMs(failures + 1, {
    baseMs: options.pollIntervalMs,
    capMs: options.failedPollCapMs,
    floor: 1,
  });
  logger.warn(
    { kind: channel.kind, reason: describeError(error), retryInMs },
    "outbox poll failed",
  );
  return retryInMs;
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
  /** Claimed and loaded ahead, started as slots free: one claim and one load serve several sends. */
  const ready: J[] = [];
  const visitors = visitorsFirst(options, deps.visitorsLate);
  // A slowed channel waits as long as a refused send's first retry at most.
  const throttle = createThrottle({
    connections: options.concurrency,
    pauseMs: options.backoff.baseMs,
  });
  const parts: WorkerParts<J> = { db, logger, options, channel, throttle };

  function begin(job: J) {
    const send: Promise<void> = sendOne(parts, job).finally(() => {
      sends.delete(send);
      wake();
    });
    sends.add(send);
  }

  /** Starts a job in each free slot, claiming due rows when too few are ready; true when every slot was taken. */
  async function fill(): Promise<boolean> {
    const allowed = throttle.allowed(Date.now());
    let free = allowed - sends.size;
    if (free <= 0) return false;
    if (ready.length < free) {
      // At full pace only: a slowed channel's rows would sit out their lease.
      const ahead = options.claimAhead && allowed === options.concurrency ? allowed : 0;
      ready.push(...(await claimMore(parts, dialect, free - ready.length + ahead)));
    }
    for (; free > 0 && ready.length > 0; free -= 1) begin(ready.shift() as J);
    return free === 0;
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
    if (visitors.mustWait()) {
      // Busy serving requests: look again after a poll interval, whatever wakes us.
      looking = undefined;
      yielding = true;
      schedule(next);
      return;
    }
    yielding = false;
    const pausedUntil = throttle.pausedUntil(Date.now());
    if (pausedUntil !== null) {
      looking = undefined;
      schedule(pausedUntil - Date.now());
      return;
    }
    try {
      if (await fill()) next = 0;
      failedPolls = 0;
    } catch (error) {
      failedPolls += 1;
      next = pollFailed(parts, failedPolls, error);
    }
    looking = undefined;
    if (wokenDuringLook) {
      wokenDuringLook = false;
      next = 0;
    }
    // With every slot busy, the next send to finish looks again.
    if (sends.size < throttle.allowed(Date.now())) schedule(next);
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
      visitors.start();
      schedule(0);
    },
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await looking;
      await Promise.all([...sends]);
      await release(db, ready.splice(0)).catch((error: unknown) =>
        // The lease brings them back.
        logger.warn({ kind: channel.kind, reason: describeError(error) }, "outbox release failed"),
      );
      visitors.stop();
    },
  };
}
