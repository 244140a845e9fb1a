import { type Progress, progressOf } from "./progress.ts";
import type { Db, OutboxKind, OutboxStatus } from "../db/schema.ts";
import { emailHasher } from "../shared/address.ts";

type OutboxCounts = Record<OutboxStatus, number>;

const zero = (): OutboxCounts => ({ pending: 0, delivered: 0, dead: 0 });

/** Emails waiting because the mail server answered "slow down" (421, 451) last time. */
export async function mailSlowedDown(db: Db): Promise<number> {
  const row = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("kind", "=", "mail")
    .where("status", "=", "pending")
    .where((eb) =>
      eb.or([eb("last_error", "like", "SMTP 421%"), eb("last_error", "like", "SMTP 451%")]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Sent, waiting and failed, the rate over the last minute and when it should be done. */
export async function announcementProgress(
  db: Db,
  announcementId: string,
  now: Date,
): Promise<Progress> {
  const rows = await db
    .selectFrom("outbox")
    .select([
      "status",
      (eb) => eb.fn.countAll().as("n"),
      (eb) => eb.fn.min("delivered_at").as("firstSentAt"),
      (eb) =>
        eb.fn
          .sum(
            eb
              .case()
              .when("delivered_at", ">=", new Date(now.getTime() - 60_000).toISOString())
              .then(1)
              .else(0)
              .end(),
          )
          .as("lastMinute"),
      // Rows never tried still hold their paced time; a claimed one holds its lease.
      (eb) =>
        eb.fn
          .max(eb.case().when("attempts", "=", 0).then(eb.ref("next_attempt_at")).end())
          .as("lastDueAt"),
    ])
    .where("announcement_id", "=", announcementId)
    .groupBy("status")
    .execute();
  const of = (status: OutboxStatus) => rows.find((r) => r.status === status);
  return progressOf(
    {
      sent: Number(of("delivered")?.n ?? 0),
      waiting: Number(of("pending")?.n ?? 0),
      failed: Number(of("dead")?.n ?? 0),
      sentLastMinute: Number(of("delivered")?.lastMinute ?? 0),
      firstSentAt: of("delivered")?.firstSentAt ?? null,
      lastDueAt: of("pending")?.lastDueAt ?? null,
      slowedDown: (await mailSlowedDown(db)) > 0,
    },
    now,
  );
}

export async function outboxSummary(db: Db) {
  const groups = await db
    .selectFrom("outbox")
    .select([
      "kind",
      "status",
      (eb) => eb.fn.countAll().as("n"),
      (eb) => eb.fn.min("created_at").as("oldest"),
    ])
    .groupBy(["kind", "status"])
    .execute();
  const kinds: Record<OutboxKind, { counts: OutboxCounts; oldestPendingAt: string | null }> = {
    spreadsheet: { counts: zero(), oldestPendingAt: null },
    mail: { counts: zero(), oldestPendingAt: null },
  };
  for (const g of groups) {
    kinds[g.kind].counts[g.status] = Number(g.n);
    if (g.status === "pending") kinds[g.kind].oldestPendingAt = g.oldest;
  }
  const dead = await db
    .selectFrom("outbox")
    .select([
      "kind",
      "topic",
      "registration_id as registrationId",
      "attempts",
      "last_error as lastError",
      "created_at as createdAt",
    ])
    .where("status", "=", "dead")
    .orderBy("created_at")
    .execute();
  const announcements = await db
    .selectFrom("announcements as a")
    .leftJoin("outbox as o", "o.announcement_id", "a.id")
    .select([
      "a.id",
      "a.subject",
      "a.created_at as createdAt",
      "o.status",
      (eb) => eb.fn.count("o.id").as("n"),
    ])
    .groupBy(["a.id", "a.subject", "a.created_at", "o.status"])
    .orderBy("a.created_at")
    .execute();
  const byId = new Map<
    string,
    { id: string; subject: string; createdAt: string; counts: OutboxCounts }
  >();
  for (const { status, n, ...announcement } of announcements) {
    const entry = byId.get(announcement.id) ?? { ...announcement, counts: zero() };
    if (status) entry.counts[status] = Number(n);
    byId.set(announcement.id, entry);
  }
  return { kinds, dead, announcements: [...byId.values()], slowedDown: await mailSlowedDown(db) };
}

/** Dead rows start afresh, their suppressions lifted; waiting retries fall due now. */
export async function retryOutbox(db: Db, now: Date) {
  const at = now.toISOString();
  const hash = await emailHasher(db);
  return db.transaction().execute(async (trx) => {
    const deadMail = await trx
      .selectFrom("outbox as o")
      .innerJoin("registrations as r", "r.id", "o.registration_id")
      .select("r.email")
      .where("o.status", "=", "dead")
      .where("o.kind", "=", "mail")
      .execute();
    const hashes = [...new Set(deadMail.map((r) => hash(r.email)))];
    if (hashes.length > 0) {
      await trx.deleteFrom("mail_suppressions").where("email_hash", "in", hashes).execute();
    }
    const revived = await trx
      .updateTable("outbox")
      .set({ status: "pending", attempts: 0, next_attempt_at: at })
      .where("status", "=", "dead")
      .executeTakeFirst();
    // Announcements keep their pace (MAIL_PER_MINUTE): only retries waiting on backoff move.
    const hurried = await trx
      .updateTable("outbox")
      .set({ next_attempt_at: at })
      .where("status", "=", "pending")
      .where("next_attempt_at", ">", at)
      .where("attempts", ">", 0)
      .where((eb) => eb.or([eb("sending_until", "is", null), eb("sending_until", "<=", at)]))
      .executeTakeFirst();
    return { revived: Number(revived.numUpdatedRows), hurried: Number(hurried.numUpdatedRows) };
  });
}
