import type { Kysely } from "kysely";

import type { Database, Dialect, OutboxKind } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { backoffDelayMs, type BackoffPolicy } from "./backoff.ts";
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

/** Spreadsheet deliveries. */
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

/** Emails: an SMTP exchange is slower than a webhook, and a day of retries is enough. */
export const DEFAULT_MAIL_OPTIONS: OutboxWorkerOptions = {
  ...DEFAULT_OUTBOX_OPTIONS,
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

  async function deliver(job: J): Promise<void> {
    const log = { ...channel.describe(job), attempt: job.attempt };
    let failure: string;
    try {
      const refused = await channel.send(job);
      if (refused === null) {
        await markDelivered(db, job, options.now());
        logger.info(log, channel.sent);
        return;
      }
      failure = refused;
    } catch (error) {
      failure = describeFailure(error, options.timeoutMs);
    }
    if (job.attempt >= options.maxAttempts) {
      await markFailed(db, job, { error: failure, retryAt: null });
      logger.error(
        { ...log, reason: failure },
        `${channel.failed}; gave up, the outbox row is dead`,
      );
      return;
    }
    const delayMs = backoffDelayMs(job.attempt, options.backoff, options.random);
    const retryAt = new Date(options.now().getTime() + delayMs);
    await markFailed(db, job, { error: failure, retryAt });
    logger.warn({ ...log, reason: failure, retryInMs: delayMs }, `${channel.failed}; will retry`);
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
    const results = await Promise.allSettled(jobs.map(deliver));
    for (const result of results) {
      if (result.status === "rejected") {
        // Recording the outcome failed (database trouble); the lease brings the row back.
        logger.warn(
          { reason: describeFailure(result.reason, options.timeoutMs) },
          "outbox update failed",
        );
      }
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
