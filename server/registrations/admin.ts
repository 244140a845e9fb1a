import { sql } from "kysely";

import {
  type AnnouncementPlan,
  type AnnouncementResult,
  type Audience,
  planAnnouncement,
  queueAnnouncement,
} from "./announce.ts";
import {
  type EraseResult,
  eraseByEmail,
  type ErasureRecord,
  erasuresFor,
  spreadsheetErasures,
} from "./erasure.ts";
import {
  allRegistrations,
  countRegistrations,
  findByEmail,
  listRegistrations,
  purgeReceivedBefore,
  purgeUnconfirmedBefore,
  type RegistrationWithDelivery,
} from "./repository.ts";
import { type Age, cutoffFor } from "./retention.ts";
import type { StoredRegistration } from "../../contract/registrations.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { guardAll } from "../db/unavailable.ts";
import { deleteMailFiles, mailFileIds } from "../mail/transport.ts";
import { outboxSummary, retryOutbox, type OutboxSummary } from "../outbox/summary.ts";

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
  planAnnouncement(subject: string, body: string, audience?: Audience): Promise<AnnouncementPlan>;
  /**
   * Queues the announcement at MAIL_PER_MINUTE, once per address (docs/decisions/091),
   * to everyone confirmed and subscribed or only those who asked for news (decision 104).
   */
  queueAnnouncement(
    subject: string,
    body: string,
    audience?: Audience,
  ): Promise<AnnouncementResult>;
  retryOutbox(): Promise<{ revived: number; hurried: number }>;
};

export type AdminDependencies = DatabaseHandle & {
  /** Where `.eml` files of "sent" emails live when SMTP_URL is unset. */
  dataDir: string;
  mailPerMinute: number;
  now: () => Date;
};

/** The operator tasks over one database, each wrapped in guardAvailability. */
export function createRegistrationAdmin({
  db,
  dialect,
  dataDir,
  mailPerMinute,
  now,
}: AdminDependencies): RegistrationAdmin {
  /**
   * Without SMTP_URL, "sent" emails are files under DATA_DIR/mail: a purge deletes those
   * whose outbox row went with its registration, as `erase` does (docs/decisions/095).
   */
  const deleteOrphanMailFiles = async () => {
    const ids = await mailFileIds(dataDir);
    const kept = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .selectFrom("outbox")
        .select("id")
        .where("id", "in", ids.slice(i, i + 500))
        .execute();
      for (const row of rows) kept.add(row.id);
    }
    await deleteMailFiles(
      dataDir,
      ids.filter((id) => !kept.has(id)),
    );
  };

  const purge = async (age: Age, purgeBefore: typeof purgeReceivedBefore) => {
    const cutoff = cutoffFor(age, now());
    const deleted = await purgeBefore(db, cutoff);
    if (deleted > 0) await deleteOrphanMailFiles();
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

  return guardAll<RegistrationAdmin>({
    count: () => countRegistrations(db),
    list: (limit) => listRegistrations(db, limit),
    exportAll: () => allRegistrations(db),
    findByEmail: (email) => findByEmail(db, email),
    async eraseByEmail(email) {
      const result = await eraseByEmail(db, dialect, email, now());
      // Without SMTP_URL, "sent" emails are files on this machine: they go too.
      const mailFiles = await deleteMailFiles(dataDir, result.mailIds);
      return { ...result, logCleared: await clearLog(), mailFiles };
    },
    erasures: (email) => erasuresFor(db, email),
    forwardedErasures: () => spreadsheetErasures(db),
    purgeOlderThan: (age) => purge(age, purgeReceivedBefore),
    purgeUnconfirmed: () =>
      purge({ amount: UNCONFIRMED_DAYS, unit: "days" }, purgeUnconfirmedBefore),
    outboxSummary: () => outboxSummary(db),
    planAnnouncement: (subject, body, audience) => planAnnouncement(db, subject, body, audience),
    queueAnnouncement: (subject, body, audience) =>
      queueAnnouncement(db, { subject, body, audience, now: now(), perMinute: mailPerMinute }),
    retryOutbox: () => retryOutbox(db, now()),
  });
}
