import type { Kysely } from "kysely";

import type { Database, Dialect } from "../db/schema.ts";

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
    .where("kind", "=", "sheet")
    .where("topic", "=", "registration")
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
