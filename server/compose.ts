/**
 * The server's parts in one place: storage, the registration service, the operator
 * tasks, the outbox workers, the daily purge and /healthz's write health, with
 * start() and close(). Used by server/main.ts, the CLI and the tests.
 */
import { createStaffStore, type StaffStore } from "./console/store.ts";
import type { DatabaseOptions } from "./db/database.ts";
import { openDatabase } from "./db/open-database.ts";
import { probeWrite } from "./db/probe.ts";
import type { Dialect } from "./db/schema.ts";
import { createWriteHealth, type WriteHealth } from "./db/write-health.ts";
import { type Env, siteOrigin } from "./env.ts";
import type { Logger } from "./logger.ts";
import { createMailer, type Mailer } from "./mail/transport.ts";
import { createMailWorker } from "./outbox/mail.ts";
import { createSpreadsheetWorker } from "./outbox/spreadsheet.ts";
import {
  DEFAULT_MAIL_OPTIONS,
  DEFAULT_OUTBOX_OPTIONS,
  type OutboxWorkerOptions,
} from "./outbox/worker.ts";
import { createRegistrationAdmin, type RegistrationAdmin } from "./registrations/admin.ts";
import { loadLinkKey } from "./registrations/links.ts";
import { createRegistrationService } from "./registrations/service.ts";
import type { RegistrationService } from "../contract/registrations.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type Storage = {
  registrations: RegistrationService;
  admin: RegistrationAdmin;
  /** The staff console's staff, sessions and audit trail (docs/decisions/133). */
  staff: StaffStore;
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

/** Opens the database (running pending migrations) and builds everything on top of it. */
export async function openStorage(
  env: Env,
  logger: Logger,
  options: StorageOptions = {},
): Promise<Storage> {
  const now = options.now ?? (() => new Date());
  const { db, dialect } = await openDatabase(env, logger, options);
  const linkKey = await loadLinkKey(db);

  const url = env.SHEETS_WEBHOOK_URL;
  const secret = env.SHEETS_WEBHOOK_SECRET;
  const sheetWorker =
    url && secret
      ? createSpreadsheetWorker({
          db,
          dialect,
          url,
          secret,
          logger,
          options: { ...DEFAULT_OUTBOX_OPTIONS, now, ...options.outbox },
        })
      : undefined;
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

  const writeHealth = createWriteHealth({
    probe: () => probeWrite(db, dialect),
    maxAgeMs: options.healthMaxAgeMs ?? 2_000,
  });
  const registrations = createRegistrationService({
    db,
    dialect,
    linkKey,
    now,
    forward: sheetWorker !== undefined,
    wake: { sheet: () => sheetWorker?.wake(), mail: () => mailWorker.wake() },
    observeWrite: writeHealth.observe,
    maxBatch: options.maxBatch,
    writeConcurrency: options.writeConcurrency,
  });
  const admin = createRegistrationAdmin({
    db,
    dialect,
    dataDir: env.DATA_DIR,
    mailPerMinute: env.MAIL_PER_MINUTE,
    now,
  });

  const staff = createStaffStore({ db, dialect, now });

  let purgeTimer: NodeJS.Timeout | undefined;
  let purging: Promise<void> | undefined;
  const scheduledPurge = () => {
    purging = admin
      .purgeOlderThan({ amount: env.RETENTION_MONTHS, unit: "months" })
      .then(({ cutoff, deleted }) => logger.info({ cutoff, deleted }, "retention purge done"))
      .then(() => admin.purgeUnconfirmed())
      .then(({ cutoff, deleted }) =>
        logger.info({ cutoff, deleted }, "unconfirmed registrations purged"),
      )
      .then(() => staff.purge(env.RETENTION_MONTHS))
      .then(({ cutoff, audit }) => logger.info({ cutoff, audit }, "audit trail purged"))
      .catch((error: unknown) =>
        logger.warn(
          { reason: (error as Error).message },
          "retention purge failed; will try tomorrow",
        ),
      );
  };

  return {
    dialect,
    health: writeHealth.check,
    registrations,
    admin,
    staff,
    start() {
      sheetWorker?.start();
      mailWorker.start();
      if (purgeTimer) return;
      scheduledPurge();
      purgeTimer = setInterval(scheduledPurge, options.purgeIntervalMs ?? DAY_MS);
      purgeTimer.unref();
    },
    async close() {
      clearInterval(purgeTimer);
      await sheetWorker?.stop();
      await mailWorker.stop();
      mailer.close();
      await purging;
      await db.destroy();
    },
  };
}
