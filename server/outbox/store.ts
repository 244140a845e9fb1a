import type { Kysely } from "kysely";

import type { Database, Dialect, OutboxStatus } from "../db/schema.ts";

type Db = Kysely<Database>;

/** What the worker sends for one claimed outbox row. */
export type Delivery = {
  outboxId: string;
  /** This claim's attempt number; also fences the result against a newer claim. */
  attempt: number;
  registration: {
    id: string;
    name: string;
    email: string;
    phone: string | null;
    message: string | null;
    timestamp: string;
  };
};

/**
 * Claims due rows by pushing their next attempt past a lease and counting the
 * attempt, in one statement. On PostgreSQL, FOR UPDATE SKIP LOCKED lets several
 * app servers claim side by side without waiting on or sharing rows; SQLite has
 * one writer, so the statement is atomic as it is. A worker that dies mid-delivery
 * leaves the row to be claimed again once the lease runs out (at-least-once).
 */
export async function claimDue(
  db: Db,
  dialect: Dialect,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<Delivery[]> {
  const now = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const due = db
    .selectFrom("outbox")
    .select("id")
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
    .returning(["id", "registration_id", "attempts"])
    .execute();
  if (claimed.length === 0) return [];
  const registrations = await db
    .selectFrom("registrations")
    .selectAll()
    .where(
      "id",
      "in",
      claimed.map((c) => c.registration_id),
    )
    .execute();
  const byId = new Map(registrations.map((r) => [r.id, r]));
  return claimed.flatMap((c) => {
    const r = byId.get(c.registration_id);
    // Erased in between: the cascade removed the outbox row too, so nothing to do.
    if (!r) return [];
    return [
      {
        outboxId: c.id,
        attempt: c.attempts,
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

/** Records a result only if no newer claim has taken the row since (attempt fence). */
function fenced(db: Db, delivery: Delivery) {
  return db
    .updateTable("outbox")
    .where("id", "=", delivery.outboxId)
    .where("attempts", "=", delivery.attempt)
    .where("status", "=", "pending");
}

export async function markDelivered(db: Db, delivery: Delivery, now: Date): Promise<void> {
  await fenced(db, delivery)
    .set({ status: "delivered", delivered_at: now.toISOString(), last_error: null })
    .execute();
}

export async function markFailed(
  db: Db,
  delivery: Delivery,
  outcome: { error: string; retryAt: Date | null },
): Promise<void> {
  await fenced(db, delivery)
    .set(
      outcome.retryAt
        ? { last_error: outcome.error, next_attempt_at: outcome.retryAt.toISOString() }
        : { last_error: outcome.error, status: "dead" },
    )
    .execute();
}

export type OutboxSummary = {
  counts: Record<OutboxStatus, number>;
  dead: Array<{
    registrationId: string;
    attempts: number;
    lastError: string | null;
    createdAt: string;
  }>;
  /** When the oldest undelivered row was created, if any. */
  oldestPendingAt: string | null;
};

export async function outboxSummary(db: Db): Promise<OutboxSummary> {
  const groups = await db
    .selectFrom("outbox")
    .select(["status", (eb) => eb.fn.countAll().as("n")])
    .groupBy("status")
    .execute();
  const counts: Record<OutboxStatus, number> = { pending: 0, delivered: 0, dead: 0 };
  for (const g of groups) counts[g.status] = Number(g.n);
  const dead = await db
    .selectFrom("outbox")
    .select(["registration_id", "attempts", "last_error", "created_at"])
    .where("status", "=", "dead")
    .orderBy("created_at")
    .execute();
  const oldest = await db
    .selectFrom("outbox")
    .select("created_at")
    .where("status", "=", "pending")
    .orderBy("created_at")
    .limit(1)
    .executeTakeFirst();
  return {
    counts,
    dead: dead.map((d) => ({
      registrationId: d.registration_id,
      attempts: d.attempts,
      lastError: d.last_error,
      createdAt: d.created_at,
    })),
    oldestPendingAt: oldest?.created_at ?? null,
  };
}

/** Makes dead rows pending again with a fresh set of attempts, and every pending row due now. */
export async function retryOutbox(
  db: Db,
  now: Date,
): Promise<{ revived: number; hurried: number }> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const revived = await trx
      .updateTable("outbox")
      .set({ status: "pending", attempts: 0, next_attempt_at: at })
      .where("status", "=", "dead")
      .executeTakeFirst();
    const hurried = await trx
      .updateTable("outbox")
      .set({ next_attempt_at: at })
      .where("status", "=", "pending")
      .where("next_attempt_at", ">", at)
      .executeTakeFirst();
    return { revived: Number(revived.numUpdatedRows), hurried: Number(hurried.numUpdatedRows) };
  });
}
