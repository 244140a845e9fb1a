import { sql } from "kysely";

import {
  type AnnouncementPlan,
  type AnnouncementResult,
  planAnnouncement,
  queueAnnouncement,
} from "./announce.ts";
import {
  type EraseResult,
  eraseByEmail,
  type ErasureRecord,
  erasuresFor,
  forwardedErasures,
} from "./erasure.ts";
import { loadLinkKey } from "./links.ts";
import {
  allRegistrations,
  countRegistrations,
  findByEmail,
  insertRegistration,
  insertRegistrationBatch,
  listRegistrations,
  purgeReceivedBefore,
  purgeUnconfirmedBefore,
  type RegistrationWithDelivery,
} from "./repository.ts";
import { type Age, cutoffFor } from "./retention.ts";
import { checkUnsubscribeLink, confirmRegistration, unsubscribeByLink } from "./subscription.ts";
import type {
  NewRegistration,
  RegisterResult,
  RegistrationService,
  StoredRegistration,
} from "../../contract/registrations.ts";
import type { DatabaseOptions } from "../db/database.ts";
import { createGroupCommit } from "../db/group-commit.ts";
import { openDatabase } from "../db/open-database.ts";
import { probeWrite } from "../db/probe.ts";
import type { Dialect } from "../db/schema.ts";
import { guardAvailability, isUnavailableError } from "../db/unavailable.ts";
import { createWriteHealth, type WriteHealth } from "../db/write-health.ts";
import { type Env, siteOrigin } from "../env.ts";
import type { Logger } from "../logger.ts";
import { createMailer, deleteMailFiles, type Mailer } from "../mail/transport.ts";
import { outboxSummary, retryOutbox, type OutboxSummary } from "../outbox/summary.ts";
import {
  createMailWorker,
  createOutboxWorker,
  DEFAULT_MAIL_OPTIONS,
  DEFAULT_OUTBOX_OPTIONS,
  type OutboxWorkerOptions,
} from "../outbox/worker.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days an unconfirmed registration is kept before the daily purge deletes it. */
export const UNCONFIRMED_DAYS = 30;

/** Operator tasks behind the CLI: subject access, erasure, export, purge, outbox. */
export type RegistrationAdmin = {
  count(): Promise<number>;
  list(limit: number): Promise<StoredRegistration[]>;
  exportAll(): Promise<StoredRegistration[]>;
  findByEmail(email: string): Promise<RegistrationWithDelivery[]>;
  /**
   * Erases and leaves a record (docs/decisions/079). On SQLite, `logCleared` tells
   * whether the write-ahead log could be emptied at once (false while another
   * process holds a read open; the next checkpoint then overwrites it).
   */
  eraseByEmail(
    email: string,
  ): Promise<EraseResult & { logCleared: boolean | null; mailFiles: number }>;
  /** What erasures of this address left behind. */
  erasures(email: string): Promise<ErasureRecord[]>;
  /** Erasures with copies in the spreadsheet, for staff to delete there. */
  forwardedErasures(): Promise<ErasureRecord[]>;
  purgeOlderThan(age: Age): Promise<{ cutoff: string; deleted: number }>;
  /** Registrations never confirmed within UNCONFIRMED_DAYS (docs/decisions/087). */
  purgeUnconfirmed(): Promise<{ cutoff: string; deleted: number }>;
  outboxSummary(): Promise<OutboxSummary>;
  /** How many would receive this announcement now (`announce --dry-run`). */
  planAnnouncement(subject: string, body: string): Promise<AnnouncementPlan>;
  /** Queues the announcement at MAIL_PER_MINUTE, once per address (docs/decisions/091). */
  queueAnnouncement(subject: string, body: string): Promise<AnnouncementResult>;
  retryOutbox(): Promise<{ revived: number; hurried: number }>;
};

export type Storage = {
  registrations: RegistrationService;
  admin: RegistrationAdmin;
  dialect: Dialect;
  /** Whether storage can write now (docs/decisions/073); cheap enough for /healthz. */
  health(): Promise<WriteHealth>;
  /** Starts background work (outbox delivery, daily purge). */
  start(): void;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
};

export type StorageOptions = DatabaseOptions & {
  /** Overrides for the forwarding worker (tests shorten the delays). */
  outbox?: Partial<OutboxWorkerOptions>;
  /** Overrides for the mail worker, and its transport (docs/decisions/088). */
  mail?: Partial<OutboxWorkerOptions>;
  mailer?: Mailer;
  now?: () => Date;
  purgeIntervalMs?: number;
  /** Most registrations written in one transaction. */
  maxBatch?: number;
  /** Transactions writing registrations at once (SQLite has one writer). */
  writeConcurrency?: number;
  /** How long a health observation stands before /healthz probes again. */
  healthMaxAgeMs?: number;
};

/**
 * The registration service: opens storage (server/db/open-database.ts), then serves
 * registrations with group commit, the operator tasks, outbox delivery and the daily purge.
 */
export async function openStorage(
  env: Env,
  logger: Logger,
  options: StorageOptions = {},
): Promise<Storage> {
  const now = options.now ?? (() => new Date());
  const { db, dialect } = await openDatabase(env, logger, options);
  const linkKey = await loadLinkKey(db);

  const forwardTo = env.SHEETS_WEBHOOK_URL;
  const secret = env.SHEETS_WEBHOOK_SECRET;
  const worker =
    forwardTo && secret
      ? createOutboxWorker({
          db,
          dialect,
          url: forwardTo,
          secret,
          logger,
          options: { ...DEFAULT_OUTBOX_OPTIONS, now, ...options.outbox },
        })
      : undefined;

  const forward = worker !== undefined;

  const mailer = options.mailer ?? createMailer(env, logger);
  const mailWorker = createMailWorker({
    db,
    dialect,
    mailer,
    siteOrigin: siteOrigin(env),
    linkKey,
    logger,
    options: { ...DEFAULT_MAIL_OPTIONS, now, ...options.mail },
  });
  // One transaction (one fsync) for every registration that arrives while the
  // previous one commits: see docs/decisions/031.
  const submit = createGroupCommit<NewRegistration, RegisterResult>(
    async (inputs) => {
      try {
        const results = await insertRegistrationBatch(db, inputs, { forward, now: now() });
        return results.map((value) => ({ status: "fulfilled", value }));
      } catch (error) {
        if (inputs.length === 1 || isUnavailableError(error)) throw error;
        // One bad row must not fail its neighbours: write each on its own.
        return Promise.allSettled(
          inputs.map((input) => insertRegistration(db, input, { forward, now: now() })),
        );
      }
    },
    {
      maxBatch: options.maxBatch ?? 200,
      concurrency: options.writeConcurrency ?? (dialect === "sqlite" ? 1 : 4),
    },
  );

  const purgeOlderThan = async (age: Age) => {
    const cutoff = cutoffFor(age, now());
    const deleted = await guardAvailability(() => purgeReceivedBefore(db, cutoff));
    return { cutoff: cutoff.toISOString(), deleted };
  };

  /**
   * SQLite keeps old page images in the write-ahead log until a checkpoint: copy
   * them into the database file (where secure_delete has zeroed the erased rows)
   * and truncate the log to nothing. PostgreSQL: see docs/operations.md.
   */
  const clearLog = async (): Promise<boolean | null> => {
    if (dialect !== "sqlite") return null;
    const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    return Number(rows[0]?.busy ?? 1) === 0;
  };

  const purgeUnconfirmed = async () => {
    const cutoff = cutoffFor({ amount: UNCONFIRMED_DAYS, unit: "days" }, now());
    const deleted = await guardAvailability(() => purgeUnconfirmedBefore(db, cutoff));
    return { cutoff: cutoff.toISOString(), deleted };
  };

  let purgeTimer: NodeJS.Timeout | undefined;
  let purging: Promise<void> | undefined;
  const scheduledPurge = () => {
    purging = purgeOlderThan({ amount: env.RETENTION_MONTHS, unit: "months" })
      .then(({ cutoff, deleted }) => logger.info({ cutoff, deleted }, "retention purge done"))
      .then(purgeUnconfirmed)
      .then(({ cutoff, deleted }) =>
        logger.info({ cutoff, deleted }, "unconfirmed registrations purged"),
      )
      .catch((error: unknown) =>
        logger.warn(
          { reason: (error as Error).message },
          "retention purge failed; will try tomorrow",
        ),
      );
  };

  const writeHealth = createWriteHealth({
    probe: () => probeWrite(db, dialect),
    maxAgeMs: options.healthMaxAgeMs ?? 2_000,
  });

  return {
    dialect,
    health: writeHealth.check,
    registrations: {
      async register(input) {
        const result = await guardAvailability(() => submit(input)).catch((error: unknown) => {
          writeHealth.observe(error);
          throw error;
        });
        writeHealth.observe();
        if (result.kind === "created") {
          worker?.wake();
          mailWorker.wake();
        }
        return result;
      },
      async confirm(token) {
        const result = await guardAvailability(() =>
          confirmRegistration({ db, key: linkKey, now: now(), forward }, token),
        );
        if (result.kind === "confirmed" && result.firstTime) worker?.wake();
        return result;
      },
      checkUnsubscribe: (token) =>
        guardAvailability(() => checkUnsubscribeLink({ db, key: linkKey, now: now() }, token)),
      async unsubscribe(token) {
        const result = await guardAvailability(() =>
          unsubscribeByLink({ db, key: linkKey, now: now(), forward }, token),
        );
        if (result.kind === "unsubscribed" && result.firstTime) worker?.wake();
        return result;
      },
    },
    admin: {
      count: () => guardAvailability(() => countRegistrations(db)),
      list: (limit) => guardAvailability(() => listRegistrations(db, limit)),
      exportAll: () => guardAvailability(() => allRegistrations(db)),
      findByEmail: (email) => guardAvailability(() => findByEmail(db, email)),
      eraseByEmail: (email) =>
        guardAvailability(async () => {
          const result = await eraseByEmail(db, email, now());
          // Without SMTP_URL, "sent" emails are files on this machine: they go too.
          const mailFiles = await deleteMailFiles(env.DATA_DIR, result.mailIds);
          return { ...result, logCleared: await clearLog(), mailFiles };
        }),
      erasures: (email) => guardAvailability(() => erasuresFor(db, email)),
      forwardedErasures: () => guardAvailability(() => forwardedErasures(db)),
      purgeOlderThan,
      purgeUnconfirmed,
      outboxSummary: () => guardAvailability(() => outboxSummary(db)),
      planAnnouncement: (subject, body) =>
        guardAvailability(() => planAnnouncement(db, subject, body)),
      queueAnnouncement: (subject, body) =>
        guardAvailability(() =>
          queueAnnouncement(db, { subject, body, now: now(), perMinute: env.MAIL_PER_MINUTE }),
        ),
      retryOutbox: () => guardAvailability(() => retryOutbox(db, now())),
    },
    start() {
      worker?.start();
      mailWorker.start();
      if (purgeTimer) return;
      scheduledPurge();
      purgeTimer = setInterval(scheduledPurge, options.purgeIntervalMs ?? DAY_MS);
      purgeTimer.unref();
    },
    async close() {
      clearInterval(purgeTimer);
      await worker?.stop();
      await mailWorker.stop();
      mailer.close();
      await purging;
      await db.destroy();
    },
  };
}
