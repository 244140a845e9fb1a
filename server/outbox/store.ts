import type { Kysely, Selectable } from "kysely";

import type {
  Database,
  Dialect,
  OutboxKind,
  OutboxTopic,
  RegistrationsTable,
} from "../db/schema.ts";
import type { MailJob } from "../mail/compose.ts";

type Db = Kysely<Database>;

/** One claimed outbox row. */
export type Claim = {
  outboxId: string;
  /** This claim's attempt number; also fences the result against a newer claim. */
  attempt: number;
  topic: OutboxTopic;
  registrationId: string;
  announcementId: string | null;
};

/** What the spreadsheet worker sends for one claimed row. */
export type Delivery = Pick<Claim, "outboxId" | "attempt"> &
  (
    | {
        topic: "registration";
        registration: {
          id: string;
          name: string;
          email: string;
          phone: string | null;
          message: string | null;
          timestamp: string;
        };
      }
    /** A later delivery: the registration's state as it is when sent. */
    | {
        topic: "status";
        status: { id: string; confirmedAt: string | null; unsubscribedAt: string | null };
      }
  );

/** What the mail worker sends for one claimed row. */
export type MailDelivery = Pick<Claim, "outboxId" | "attempt"> & MailJob;

/**
 * Claims due rows of one kind by pushing their next attempt past a lease and counting
 * the attempt, in one statement. On PostgreSQL, FOR UPDATE SKIP LOCKED lets several
 * app servers claim side by side without waiting on or sharing rows; SQLite has one
 * writer, so the statement is atomic as it is. A worker that dies mid-delivery leaves
 * the row to be claimed again once the lease runs out (at-least-once).
 */
export async function claimDue(
  db: Db,
  dialect: Dialect,
  options: { kind: OutboxKind; now: Date; leaseMs: number; limit: number },
): Promise<Claim[]> {
  const now = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const due = db
    .selectFrom("outbox")
    .select("id")
    .where("kind", "=", options.kind)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .limit(options.limit)
    .$if(dialect === "postgres", (qb) => qb.forUpdate().skipLocked());
  const claimed = await db
    .updateTable("outbox")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: leaseUntil }))
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .returning(["id", "registration_id", "attempts", "topic", "announcement_id"])
    .execute();
  return claimed.map((c) => ({
    outboxId: c.id,
    attempt: c.attempts,
    topic: c.topic,
    registrationId: c.registration_id,
    announcementId: c.announcement_id,
  }));
}

async function registrationsFor(
  db: Db,
  claims: readonly Claim[],
): Promise<Map<string, Selectable<RegistrationsTable>>> {
  if (claims.length === 0) return new Map();
  const rows = await db
    .selectFrom("registrations")
    .selectAll()
    .where("id", "in", [...new Set(claims.map((c) => c.registrationId))])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The spreadsheet deliveries for claimed rows; a row whose registration is gone has nothing to send. */
export async function sheetDeliveries(db: Db, claims: readonly Claim[]): Promise<Delivery[]> {
  const byId = await registrationsFor(db, claims);
  return claims.flatMap((c): Delivery[] => {
    const r = byId.get(c.registrationId);
    // Erased in between: the cascade removed the outbox row too, so nothing to do.
    if (!r) return [];
    const claim = { outboxId: c.outboxId, attempt: c.attempt };
    if (c.topic === "status") {
      return [
        {
          ...claim,
          topic: "status",
          status: { id: r.id, confirmedAt: r.confirmed_at, unsubscribedAt: r.unsubscribed_at },
        },
      ];
    }
    return [
      {
        ...claim,
        topic: "registration",
        registration: {
          id: r.id,
          name: r.name,
          email: r.email,
          phone: r.phone,
          message: r.message,
          timestamp: r.client_timestamp ?? r.received_at,
        },
      },
    ];
  });
}

/**
 * The emails for claimed rows. Mail for an address unsubscribed since it was queued is
 * not sent: its row is deleted (`dropped` lists them for the log).
 */
export async function mailDeliveries(
  db: Db,
  claims: readonly Claim[],
): Promise<{ deliveries: MailDelivery[]; dropped: string[] }> {
  const byId = await registrationsFor(db, claims);
  const announcementIds = [
    ...new Set(claims.flatMap((c) => (c.announcementId ? [c.announcementId] : []))),
  ];
  const announcements = new Map(
    announcementIds.length === 0
      ? []
      : (
          await db
            .selectFrom("announcements")
            .select(["id", "subject", "body"])
            .where("id", "in", announcementIds)
            .execute()
        ).map((a) => [a.id, { subject: a.subject, body: a.body }]),
  );
  const deliveries: MailDelivery[] = [];
  const dropped: string[] = [];
  for (const c of claims) {
    const r = byId.get(c.registrationId);
    if (!r) continue;
    if (r.unsubscribed_at !== null || (c.topic !== "confirmation" && c.topic !== "announcement")) {
      dropped.push(c.outboxId);
      continue;
    }
    deliveries.push({
      outboxId: c.outboxId,
      attempt: c.attempt,
      topic: c.topic,
      registration: { id: r.id, name: r.name, email: r.email, receivedAt: r.received_at },
      announcement: c.announcementId ? (announcements.get(c.announcementId) ?? null) : null,
    });
  }
  if (dropped.length > 0) await db.deleteFrom("outbox").where("id", "in", dropped).execute();
  return { deliveries, dropped };
}

/** Records a result only if no newer claim has taken the row since (attempt fence). */
function fenced(db: Db, claim: Pick<Claim, "outboxId" | "attempt">) {
  return db
    .updateTable("outbox")
    .where("id", "=", claim.outboxId)
    .where("attempts", "=", claim.attempt)
    .where("status", "=", "pending");
}

export async function markDelivered(
  db: Db,
  claim: Pick<Claim, "outboxId" | "attempt">,
  now: Date,
): Promise<void> {
  await fenced(db, claim)
    .set({ status: "delivered", delivered_at: now.toISOString(), last_error: null })
    .execute();
}

export async function markFailed(
  db: Db,
  claim: Pick<Claim, "outboxId" | "attempt">,
  outcome: { error: string; retryAt: Date | null },
): Promise<void> {
  await fenced(db, claim)
    .set(
      outcome.retryAt
        ? { last_error: outcome.error, next_attempt_at: outcome.retryAt.toISOString() }
        : { last_error: outcome.error, status: "dead" },
    )
    .execute();
}
