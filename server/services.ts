import { createAnnouncementDrafts } from "./announcements/drafts.ts";
import { createStaffStore } from "./console/store.ts";
import { type DatabaseOptions, openDatabase } from "./db/database.ts";
import type { DatabaseHandle } from "./db/schema.ts";
import { createWriteHealth, guardAll, probeWrite } from "./db/writes.ts";
import { type Env, siteOrigin } from "./env.ts";
import type { Logger } from "./logger.ts";
import { createMailer, type Mailer } from "./mail/transport.ts";
import { createRegistrationAdmin } from "./operator/admin.ts";
import { mailThread } from "./outbox/mail-thread.ts";
import { createMailWorker } from "./outbox/mail.ts";
import { createSpreadsheetWorker } from "./outbox/spreadsheet.ts";
import type { OutboxWorkerOptions } from "./outbox/worker.ts";
import { createRegister } from "./registrations/register.ts";
import {
  checkConfirmLink,
  checkUnsubscribeLink,
  confirmRegistration,
  rejoinByLink,
  unsubscribeByLink,
} from "./registrations/subscription.ts";
import { loadLinkKey } from "./shared/links.ts";
import type { RegistrationService } from "../contract/registrations.ts";

// The server's parts in one place, for main.ts, the CLI and the tests (decision 123).

export type Services = Awaited<ReturnType<typeof openServices>>;

export type ServicesOptions = DatabaseOptions & {
  spreadsheet?: Partial<OutboxWorkerOptions>;
  mail?: Partial<OutboxWorkerOptions>;
  mailer?: Mailer;
  now?: () => Date;
  maxBatch?: number;
  writeConcurrency?: number;
  healthMaxAgeMs?: number;
  /** The server's: email is sent from a thread of its own (decision 184). */
  mailThread?: boolean;
};

/** The email links' actions: each change queues its status for the spreadsheet. */
function linkActions(
  { now, ...link }: DatabaseHandle & { key: string; now: () => Date; spreadsheet: boolean },
  wakeSpreadsheet: () => void,
) {
  const ctx = () => ({ ...link, now: now() });
  return guardAll<Omit<RegistrationService, "register">>({
    checkConfirm: (token) => checkConfirmLink(ctx(), token),
    async confirm(token) {
      const result = await confirmRegistration(ctx(), token);
      if (result.kind === "confirmed" && result.firstTime) wakeSpreadsheet();
      return result;
    },
    checkUnsubscribe: (token) => checkUnsubscribeLink(ctx(), token),
    async unsubscribe(token) {
      const result = await unsubscribeByLink(ctx(), token);
      if (result.kind === "unsubscribed" && result.firstTime) wakeSpreadsheet();
      return result;
    },
    async rejoin(token) {
      const result = await rejoinByLink(ctx(), token);
      wakeSpreadsheet();
      return result;
    },
  });
}

export async function openServices(env: Env, logger: Logger, options: ServicesOptions = {}) {
  const now = options.now ?? (() => new Date());
  const { db, dialect } = await openDatabase(env, logger, options);
  const key = await loadLinkKey(db);

  const { SPREADSHEET_URL: url, SPREADSHEET_SECRET: secret } = env;
  const base = { db, dialect, logger };
  const spreadsheetWorker =
    url && secret
      ? createSpreadsheetWorker({ ...base, url, secret, options: { now, ...options.spreadsheet } })
      : undefined;
  const mailer = options.mailer ?? createMailer(env, logger);
  const links = { siteOrigin: siteOrigin(env), linkKey: key };
  const mailWorker = options.mailThread
    ? mailThread(env, logger)
    : createMailWorker({
        ...base,
        ...links,
        mailer,
        options: { now, concurrency: env.MAIL_CONNECTIONS, ...options.mail },
      });
  const spreadsheet = spreadsheetWorker !== undefined;
  const wake = { spreadsheet: () => spreadsheetWorker?.wake(), mail: () => mailWorker.wake() };

  const writeHealth = createWriteHealth({
    probe: () => probeWrite(db, dialect),
    maxAgeMs: options.healthMaxAgeMs ?? 2_000,
  });
  const registrations: RegistrationService = {
    register: createRegister({
      db,
      dialect,
      now,
      spreadsheet,
      wake,
      observeWrite: writeHealth.observe,
      maxBatch: options.maxBatch,
      writeConcurrency: options.writeConcurrency,
    }),
    ...linkActions({ db, dialect, key, now, spreadsheet }, wake.spreadsheet),
  };
  const admin = createRegistrationAdmin({ db, dialect, dataDir: env.DATA_DIR, now });
  const staff = createStaffStore({ db, dialect, now });
  const announcements = createAnnouncementDrafts({
    db,
    now,
    mailer,
    ...links,
    mailPerMinute: env.MAIL_PER_MINUTE,
    wakeMail: wake.mail,
    audit: staff.audit,
    // Managers other than the author who may approve the author's work (decision 175).
    approvers: (authorId) => staff.approversFor(authorId),
  });

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
    announcements,
    mailer,
    start() {
      spreadsheetWorker?.start();
      mailWorker.start();
      if (purgeTimer) return;
      scheduledPurge();
      purgeTimer = setInterval(scheduledPurge, 24 * 60 * 60 * 1000);
      purgeTimer.unref();
    },
    async close() {
      clearInterval(purgeTimer);
      await spreadsheetWorker?.stop();
      await mailWorker.stop();
      mailer.close();
      await purging;
      await db.destroy();
    },
  };
}
