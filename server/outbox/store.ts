import { type Selectable, sql } from "kysely";

import {
  type Db,
  type Dialect,
  later,
  type OutboxKind,
  type OutboxTopic,
  type RegistrationsTable,
} from "../db/schema.ts";

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
  return (
    db
      .updateTable("outbox")
      .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: leaseUntil }))
      // PostgreSQL may run an `IN (subquery)` again for the outer rows, each run skipping the rows
      // the last one locked: a limit of 4 claimed 8. An array is computed once.
      .where((eb) =>
        dialect === "postgres"
          ? sql<boolean>`${eb.ref("id")} = any(array(${due}))`
          : eb("id", "in", due),
      )
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
      .execute()
  );
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
  job: Pick<Claim, "outboxId" | "attempt" | "registrationId"> & { email: string },
  sendingUntil: Date,
  emailHash: (email: string) => Promise<string>,
): Promise<Refusal | null> {
  // The address as loaded with the claim: a registration's address never changes, and one
  // erased since is missing from `sameAddress` below.
  const hash = await emailHash(job.email);
  return db.transaction().execute(async (trx) => {
    const sameAddress = await trx
      .selectFrom("registrations")
      .select((eb) => [
        "id",
        "confirmed_at",
        "unsubscribed_at",
        // In the same round trip: the gate runs for every email.
        eb
          .exists(
            eb.selectFrom("mail_suppressions").select("email_hash").where("email_hash", "=", hash),
          )
          .as("suppressed"),
      ])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", job.email.trim().toLowerCase()))
      .$if(dialect === "postgres", (qb) => qb.forShare("registrations"))
      .execute();
    const unsubscribedAt = sameAddress.map((r) => r.unsubscribed_at).reduce(later, null);
    let refusal: Refusal | null = null;
    if (!sameAddress.some((r) => r.id === job.registrationId)) refusal = "erased";
    else if (sameAddress.some((r) => Boolean(r.suppressed))) refusal = "suppressed";
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

/** Gives back claims never started (a stopping worker's), due now, their attempt uncounted. */
export async function release(db: Db, claims: ReadonlyArray<Pick<Claim, "outboxId" | "attempt">>) {
  for (const claim of claims) {
    await fenced(db, claim)
      .set((eb) => ({
        attempts: eb("attempts", "-", 1),
        next_attempt_at: new Date().toISOString(),
      }))
      .execute();
  }
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

/** Aborts the sends this thread holds among `ids`, and answers which, once they have ended. */
export async function abortSends(ids: readonly string[]): Promise<string[]> {
  const held = ids.flatMap((id) => {
    const entry = sending.get(id);
    if (!entry) return [];
    entry.controller.abort(new Error("stopped: erased or unsubscribed"));
    return [{ id, done: entry.done.catch(() => {}) }];
  });
  await Promise.all(held.map((h) => h.done));
  return held.map((h) => h.id);
}

/** Another thread of this process that sends (the mail thread): aborts what it holds, says which. */
type SendsElsewhere = (ids: readonly string[]) => Promise<string[]>;
const elsewhere = new Set<SendsElsewhere>();

/** Lets `stopSends` reach a thread's sends; returns the way to stop reaching it. */
export function reachSends(stop: SendsElsewhere): () => void {
  elsewhere.add(stop);
  return () => elsewhere.delete(stop);
}

/** Aborts this process's sends; another process's end by their own `sendingUntil`, so wait. */
export async function stopSends(rows: readonly InFlight[]): Promise<void> {
  const ended = new Set(await abortSends(rows.map((r) => r.outboxId)));
  for (const stop of elsewhere) {
    const rest = rows.map((r) => r.outboxId).filter((id) => !ended.has(id));
    if (rest.length > 0) for (const id of await stop(rest)) ended.add(id);
  }
  const until = Math.max(
    0,
    ...rows.filter((r) => !ended.has(r.outboxId)).map((r) => Date.parse(r.sendingUntil)),
  );
  // At most the mail timeout in practice; bounded in case of a wildly wrong clock.
  const wait = Math.min(until - Date.now(), 5 * 60_000);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
