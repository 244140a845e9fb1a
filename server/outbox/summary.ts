import type { Kysely } from "kysely";

import type { Database, OutboxStatus } from "../db/schema.ts";

type Db = Kysely<Database>;

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
