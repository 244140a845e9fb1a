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
  /** When the row was queued: retries stop a while after it. */
  createdAt: string;
};

/** What the spreadsheet delivery sends for one claimed row. */
export type SpreadsheetDelivery = Pick<Claim, "outboxId" | "attempt" | "createdAt"> &
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
export type MailDelivery = Pick<Claim, "outboxId" | "attempt" | "createdAt"> & MailJob;

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
    // A message still with the transport is left alone, whatever moved its time.
    .where((eb) => eb.or([eb("sending_until", "is", null), eb("sending_until", "<=", now)]))
    .orderBy("next_attempt_at")
    .limit(options.limit)
    .$if(dialect === "postgres", (qb) => qb.forUpdate().skipLocked());
  const claimed = await db
    .updateTable("outbox")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: leaseUntil }))
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .returning(["id", "registration_id", "attempts", "topic", "announcement_id", "created_at"])
    .execute();
  return claimed.map((c) => ({
    outboxId: c.id,
    attempt: c.attempts,
    topic: c.topic,
    registrationId: c.registration_id,
    announcementId: c.announcement_id,
    createdAt: c.created_at,
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
export async function spreadsheetDeliveries(
  db: Db,
  claims: readonly Claim[],
): Promise<SpreadsheetDelivery[]> {
  const byId = await registrationsFor(db, claims);
  return claims.flatMap((c): SpreadsheetDelivery[] => {
    const r = byId.get(c.registrationId);
    // Erased in between: the cascade removed the outbox row too, so nothing to do.
    if (!r) return [];
    const claim = { outboxId: c.outboxId, attempt: c.attempt, createdAt: c.createdAt };
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
 * The emails for claimed rows, as they would be built now. Whether one may still go is
 * not decided here but at the moment of handoff (`handOff`).
 */
export async function mailDeliveries(db: Db, claims: readonly Claim[]): Promise<MailDelivery[]> {
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
  return claims.flatMap((c): MailDelivery[] => {
    const r = byId.get(c.registrationId);
    // Erased in between: the cascade removed the row too.
    if (!r || (c.topic !== "confirmation" && c.topic !== "announcement")) return [];
    return [
      {
        outboxId: c.outboxId,
        attempt: c.attempt,
        createdAt: c.createdAt,
        topic: c.topic,
        registration: {
          id: r.id,
          name: r.name,
          email: r.email,
          receivedAt: r.received_at,
          wantsUpdates: Number(r.wants_updates) === 1,
        },
        announcement: c.announcementId ? (announcements.get(c.announcementId) ?? null) : null,
      },
    ];
  });
}

/** Why the handoff gate kept a message back. */
export type Refusal = "erased" | "suppressed" | "unsubscribed" | "taken";

/**
 * The handoff gate (docs/decisions/095): decides, in the database, at the moment a
 * message is handed to the transport, whether it may go, and if so marks it in flight
 * until `sendingUntil`. It may go only if its row is still this claim's, its registration
 * still exists, the address is not suppressed, and the address has no unsubscribed
 * registration unless one of its registrations was confirmed after the latest unsubscribe.
 *
 * The registrations of the address are read under a share lock (PostgreSQL) before the
 * outbox row is touched; erasure and unsubscribe lock them for update first, in the same
 * order, so either the gate sees their change, or they see the row in flight and wait
 * for it (`stopSends`). On SQLite one writer at a time gives the same order.
 */
export async function handOff(
  db: Db,
  dialect: Dialect,
  job: Pick<MailDelivery, "outboxId" | "attempt"> & { registrationId: string },
  sendingUntil: Date,
  emailHash: (email: string) => Promise<string>,
): Promise<Refusal | null> {
  const lock = dialect === "postgres";
  const own = await db
    .selectFrom("registrations")
    .select("email")
    .where("id", "=", job.registrationId)
    .executeTakeFirst();
  // Hashed outside the transaction: the key never changes.
  const hash = own ? await emailHash(own.email) : null;
  return db.transaction().execute(async (trx) => {
    if (!own || hash === null) return "erased";
    const address = own.email.trim().toLowerCase();
    const sameAddress = await trx
      .selectFrom("registrations")
      .select(["id", "confirmed_at", "unsubscribed_at"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", address))
      .$if(lock, (qb) => qb.forShare())
      .execute();
    let refusal: Refusal | null = null;
    if (!sameAddress.some((r) => r.id === job.registrationId)) refusal = "erased";
    else if (
      await trx
        .selectFrom("mail_suppressions")
        .select("email_hash")
        .where("email_hash", "=", hash)
        .executeTakeFirst()
    )
      refusal = "suppressed";
    else {
      const lastUnsubscribe = sameAddress.reduce<string | null>(
        (latest, r) =>
          r.unsubscribed_at !== null && (latest === null || r.unsubscribed_at > latest)
            ? r.unsubscribed_at
            : latest,
        null,
      );
      if (
        lastUnsubscribe !== null &&
        !sameAddress.some((r) => r.confirmed_at !== null && r.confirmed_at > lastUnsubscribe)
      )
        refusal = "unsubscribed";
    }
    if (refusal !== null) {
      // Not sent, and never will be: the row goes (an erased one went with its registration).
      await trx
        .deleteFrom("outbox")
        .where("id", "=", job.outboxId)
        .where("attempts", "=", job.attempt)
        .execute();
      return refusal;
    }
    const marked = await fenced(trx, job)
      .set({ sending_until: sendingUntil.toISOString() })
      .executeTakeFirst();
    return Number(marked.numUpdatedRows) === 1 ? null : "taken";
  });
}

/**
 * Suppresses an address a mail server refused for good: no mail goes to it again. Kept as
 * the erasure key's hash with the reply's code, so it outlives an erasure without the address.
 */
export async function suppress(db: Db, emailHash: string, reply: string, now: Date): Promise<void> {
  await db
    .insertInto("mail_suppressions")
    .values({ email_hash: emailHash, reply, suppressed_at: now.toISOString() })
    .onConflict((oc) => oc.column("email_hash").doNothing())
    .execute();
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
    .set({
      status: "delivered",
      delivered_at: now.toISOString(),
      last_error: null,
      sending_until: null,
    })
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
        ? {
            last_error: outcome.error,
            next_attempt_at: outcome.retryAt.toISOString(),
            sending_until: null,
          }
        : { last_error: outcome.error, status: "dead", sending_until: null },
    )
    .execute();
}
