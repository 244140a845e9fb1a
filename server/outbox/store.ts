import type { Kysely, Selectable } from "kysely";

import type {
  Database,
  Dialect,
  OutboxKind,
  OutboxTopic,
  RegistrationsTable,
} from "../db/schema.ts";
import { later } from "../registrations/register.ts";

type Db = Kysely<Database>;

export type Claim = {
  outboxId: string;
  /** This claim's attempt number; also fences the result against a newer claim. */
  attempt: number;
  topic: OutboxTopic;
  registrationId: string;
  announcementId: string | null;
  createdAt: string;
};

/** Counts the attempt and leases the row (a dead worker's fall due again); SKIP LOCKED for many. */
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
  return db
    .updateTable("outbox")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: leaseUntil }))
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .returning([
      "id as outboxId",
      "attempts as attempt",
      "topic",
      "registration_id as registrationId",
      "announcement_id as announcementId",
      "created_at as createdAt",
    ])
    .execute();
}

/** The claims' registrations by id; one erased since has none. */
export async function registrationsFor(
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

type Refusal = "erased" | "suppressed" | "unsubscribed" | "taken";

/**
 * The handoff gate (decision 095): a message goes, marked in flight until `sendingUntil`,
 * only if its claim, its registration and a subscribed, unsuppressed address still stand.
 * Share-locking the address first orders it against erasure's and unsubscribe's
 * `lockAddress`: either the gate sees their change, or they wait in `stopSends`.
 */
export async function handOff(
  db: Db,
  dialect: Dialect,
  job: Pick<Claim, "outboxId" | "attempt" | "registrationId">,
  sendingUntil: Date,
  emailHash: (email: string) => Promise<string>,
): Promise<Refusal | null> {
  const own = await db
    .selectFrom("registrations")
    .select("email")
    .where("id", "=", job.registrationId)
    .executeTakeFirst();
  if (!own) return "erased";
  const hash = await emailHash(own.email);
  return db.transaction().execute(async (trx) => {
    const sameAddress = await trx
      .selectFrom("registrations")
      .select(["id", "confirmed_at", "unsubscribed_at"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", own.email.trim().toLowerCase()))
      .$if(dialect === "postgres", (qb) => qb.forShare())
      .execute();
    const unsubscribedAt = sameAddress.map((r) => r.unsubscribed_at).reduce(later, null);
    const suppressed = () =>
      trx
        .selectFrom("mail_suppressions")
        .select("email_hash")
        .where("email_hash", "=", hash)
        .executeTakeFirst();
    let refusal: Refusal | null = null;
    if (!sameAddress.some((r) => r.id === job.registrationId)) refusal = "erased";
    else if (await suppressed()) refusal = "suppressed";
    else if (
      unsubscribedAt !== null &&
      (sameAddress.map((r) => r.confirmed_at).reduce(later, null) ?? "") <= unsubscribedAt
    )
      refusal = "unsubscribed";
    if (refusal !== null) {
      // Never to be sent: the row goes (an erased one went with its registration).
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

/** A permanent refusal, kept as the address's erasure hash so it outlives an erasure. */
export async function suppress(db: Db, emailHash: string, reply: string, now: Date): Promise<void> {
  await db
    .insertInto("mail_suppressions")
    .values({ email_hash: emailHash, reply, suppressed_at: now.toISOString() })
    .onConflict((oc) => oc.column("email_hash").doNothing())
    .execute();
}

/** An outcome is recorded only if no newer claim has taken the row since. */
export function fenced(db: Db, claim: Pick<Claim, "outboxId" | "attempt">) {
  return db
    .updateTable("outbox")
    .where("id", "=", claim.outboxId)
    .where("attempts", "=", claim.attempt)
    .where("status", "=", "pending");
}

/** Sends this process has handed to the transport and not yet heard back about. */
const sending = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

export function trackSend(outboxId: string, controller: AbortController, done: Promise<unknown>) {
  sending.set(outboxId, { controller, done });
  void done
    .finally(() => {
      if (sending.get(outboxId)?.done === done) sending.delete(outboxId);
    })
    .catch(() => {});
}

/** A row the gate marked in flight, and until when (`outbox.sending_until`). */
export type InFlight = { outboxId: string; sendingUntil: string };

/** Aborts this process's sends; another process's end by their own `sendingUntil`, so wait. */
export async function stopSends(rows: readonly InFlight[]): Promise<void> {
  let until = 0;
  const local: Array<Promise<unknown>> = [];
  for (const row of rows) {
    const entry = sending.get(row.outboxId);
    if (entry) {
      entry.controller.abort(new Error("stopped: erased or unsubscribed"));
      local.push(entry.done.catch(() => {}));
    } else {
      until = Math.max(until, Date.parse(row.sendingUntil));
    }
  }
  await Promise.all(local);
  // At most the mail timeout in practice; bounded in case of a wildly wrong clock.
  const wait = Math.min(until - Date.now(), 5 * 60_000);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
