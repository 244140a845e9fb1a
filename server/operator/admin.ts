import { sql } from "kysely";

import { waitingListOverview } from "./overview.ts";
import type { DeliveryState, RegistrationWithDelivery } from "../../contract/console.ts";
import { type Audience, planAnnouncement } from "../announcements/queue.ts";
import type { DatabaseHandle } from "../db/schema.ts";
import { guardAll } from "../db/writes.ts";
import { deleteMailFiles, mailFiles } from "../mail/transport.ts";
import { announcementProgress, outboxSummary, retryOutbox } from "../outbox/summary.ts";
import { eraseByEmail, erasuresFor, spreadsheetErasures } from "../registrations/erasure.ts";
import {
  addressHistories,
  isUnsubscribed,
  mayQueueConfirmation,
  newOutboxRow,
  toStored,
} from "../registrations/register.ts";
import { addressKey } from "../shared/address.ts";

/** Days an unconfirmed registration is kept before the daily purge deletes it. */
const UNCONFIRMED_DAYS = 30;

/** Calendar months before, in UTC; a day the month lacks clamps (31 May - 3 months = 28/29 Feb). */
export function monthsBefore(from: Date, months: number): Date {
  const to = new Date(from);
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return to;
}

export type Age = { amount: number; unit: "months" | "days" };

/** "24m", "24" (months) or "30d" (days), as `purge --older-than` takes them. */
export function parseAge(text: string): Age {
  const match = /^(\d+)\s*(m|d)?$/i.exec(text.trim());
  if (!match?.[1])
    throw new Error(
      `Cannot read the age "${text}": use a number of months like 24m, or days like 30d`,
    );
  const amount = Number(match[1]);
  if (amount < 1) throw new Error("The age must be at least 1");
  return { amount, unit: match[2]?.toLowerCase() === "d" ? "days" : "months" };
}

export function cutoffFor(age: Age, now: Date): Date {
  if (age.unit === "days") return new Date(now.getTime() - age.amount * 86_400_000);
  return monthsBefore(now, age.amount);
}

/** Subject access: every registration of the address, in any letter case, with its deliveries. */
async function findByEmail(
  db: DatabaseHandle["db"],
  email: string,
): Promise<RegistrationWithDelivery[]> {
  const rows = await db
    .selectFrom("registrations")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", addressKey(email)))
    .orderBy("received_at", "asc")
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const outbox = await db
    .selectFrom("outbox")
    .selectAll()
    .where("registration_id", "in", ids)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => {
    const own = outbox.filter((o) => o.registration_id === row.id);
    const state = (o: (typeof own)[number]): DeliveryState => ({
      status: o.status,
      attempts: o.attempts,
      deliveredAt: o.delivered_at,
    });
    const spreadsheet = own.find((o) => o.kind === "spreadsheet" && o.topic === "registration");
    return {
      ...toStored(row),
      delivery: spreadsheet ? state(spreadsheet) : null,
      emails: own
        .filter((o) => o.kind === "mail")
        .map((o) => ({ ...state(o), topic: o.topic, announcementId: o.announcement_id })),
    };
  });
}

/** The form's per-address limits (decision 152), under the INSERT's address lock. */
async function resendConfirmation(
  db: DatabaseHandle["db"],
  dialect: DatabaseHandle["dialect"],
  email: string,
  at: Date,
): Promise<{ kind: "queued" | "gone" | "confirmed" | "unsubscribed" | "limit" }> {
  const key = addressKey(email);
  return db.transaction().execute(async (trx) => {
    if (dialect === "postgres")
      await sql`select registration_address_seen(${key}, '')`.execute(trx);
    const newest = await trx
      .selectFrom("registrations")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", key))
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!newest) return { kind: "gone" };
    const history = (await addressHistories(trx, dialect, [key], [])).get(key);
    if (history && isUnsubscribed(history)) return { kind: "unsubscribed" };
    if (history?.lastConfirmedAt) return { kind: "confirmed" };
    if (history && !mayQueueConfirmation(history, at)) return { kind: "limit" };
    await trx
      .insertInto("outbox")
      .values(newOutboxRow(newest.id, at.toISOString(), { kind: "mail", topic: "confirmation" }))
      .execute();
    return { kind: "queued" };
  });
}

export function createRegistrationAdmin({
  db,
  dialect,
  dataDir,
  now,
}: DatabaseHandle & { dataDir: string; now: () => Date }) {
  // Without SMTP_URL "sent" emails are files: those whose outbox row went, go too (095).
  const deleteOrphanMailFiles = async () => {
    const ids = (await mailFiles(dataDir)).map((f) => f.id);
    const kept = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .selectFrom("outbox")
        .select("id")
        .where("id", "in", ids.slice(i, i + 500))
        .execute();
      for (const row of rows) kept.add(row.id);
    }
    const orphans = ids.filter((id) => !kept.has(id));
    await deleteMailFiles(dataDir, orphans);
  };

  /** Their outbox rows go with them (ON DELETE CASCADE). */
  const purge = async (age: Age, unconfirmedOnly: boolean) => {
    const cutoff = cutoffFor(age, now());
    const result = await db
      .deleteFrom("registrations")
      .where("received_at", "<", cutoff.toISOString())
      // Only registrations that were sent a confirmation email (they have a consent version).
      .$if(unconfirmedOnly, (q) =>
        q.where("confirmed_at", "is", null).where("consent_version", "is not", null),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    if (deleted > 0) await deleteOrphanMailFiles();
    return { cutoff: cutoff.toISOString(), deleted };
  };

  const registrations = (order: "asc" | "desc", limit?: number) =>
    db
      .selectFrom("registrations")
      .selectAll()
      .orderBy("received_at", order)
      .orderBy("id")
      .$if(limit !== undefined, (q) => q.limit(limit ?? 0))
      .execute()
      .then((rows) => rows.map(toStored));

  // Erased rows' old page images stay in SQLite's write-ahead log until a checkpoint.
  const clearLog = async (): Promise<boolean | null> => {
    if (dialect !== "sqlite") return null;
    const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    return Number(rows[0]?.busy ?? 1) === 0;
  };

  return guardAll({
    async count() {
      const { n } = await db
        .selectFrom("registrations")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    list: (limit: number) => registrations("desc", limit),
    exportAll: () => registrations("asc"),
    findByEmail: (email: string) => findByEmail(db, email),
    emailOf: async (id: string) =>
      (await db.selectFrom("registrations").select("email").where("id", "=", id).executeTakeFirst())
        ?.email ?? null,
    resendConfirmation: (email: string) => resendConfirmation(db, dialect, email, now()),
    /** Decision 079; `logCleared`: whether SQLite's log could be emptied at once. */
    async eraseByEmail(email: string) {
      const result = await eraseByEmail(db, dialect, email, now());
      const mailFiles = await deleteMailFiles(dataDir, result.mailIds);
      return { ...result, logCleared: await clearLog(), mailFiles };
    },
    erasures: (email: string) => erasuresFor(db, email),
    spreadsheetErasures: () => spreadsheetErasures(db),
    purgeOlderThan: (age: Age) => purge(age, false),
    purgeUnconfirmed: () => purge({ amount: UNCONFIRMED_DAYS, unit: "days" }, true),
    outboxSummary: () => outboxSummary(db),
    announcementProgress: (announcementId: string) =>
      announcementProgress(db, announcementId, now()),
    overview: () => waitingListOverview(db, now()),
    planAnnouncement: (subject: string, body: string, audience?: Audience) =>
      planAnnouncement(db, subject, body, audience),
    retryOutbox: () => retryOutbox(db, now()),
  });
}

export type RegistrationAdmin = ReturnType<typeof createRegistrationAdmin>;
