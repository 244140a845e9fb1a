import { randomUUID } from "node:crypto";

import type { Insertable, Kysely, Selectable } from "kysely";

import type {
  NewRegistration,
  RegisterResult,
  StoredRegistration,
} from "../../contract/registrations.ts";
import type { Database, OutboxStatus, OutboxTable, RegistrationsTable } from "../db/schema.ts";

type Db = Kysely<Database>;

export type RegistrationWithDelivery = StoredRegistration & {
  /** Forwarding to the clinic's spreadsheet; null when forwarding was off. */
  delivery: { status: OutboxStatus; attempts: number; deliveredAt: string | null } | null;
};

function toStored(row: Selectable<RegistrationsTable>): StoredRegistration {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    clientTimestamp: row.client_timestamp,
    receivedAt: row.received_at,
    idempotencyKey: row.idempotency_key,
  };
}

function newRow(input: NewRegistration, receivedAt: string): Insertable<RegistrationsTable> {
  return {
    id: randomUUID(),
    name: input.name,
    email: input.email,
    phone: input.phone,
    message: input.message,
    client_timestamp: input.clientTimestamp,
    received_at: receivedAt,
    idempotency_key: input.idempotencyKey,
  };
}

function newOutboxRow(registrationId: string, at: string): Insertable<OutboxTable> {
  return {
    id: randomUUID(),
    registration_id: registrationId,
    status: "pending",
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
  };
}

async function findByKey(db: Db, idempotencyKey: string) {
  return db
    .selectFrom("registrations")
    .selectAll()
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
}

/**
 * Inserts once per idempotency key. ON CONFLICT DO NOTHING makes a concurrent
 * second insert wait for the first and then do nothing, so the key maps to exactly
 * one row; the caller gets that row back as a duplicate. With forwarding on, the
 * outbox row commits in the same transaction as the registration.
 */
export async function insertRegistration(
  db: Db,
  input: NewRegistration,
  options: { forward: boolean; now: Date },
): Promise<RegisterResult> {
  const receivedAt = options.now.toISOString();
  const row = newRow(input, receivedAt);
  const write = async (trx: Db): Promise<RegisterResult | undefined> => {
    const inserted = await trx
      .insertInto("registrations")
      .values(row)
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) {
      const existing = await findByKey(trx, input.idempotencyKey);
      // Undefined only if the first row was erased in between: then insert afresh.
      return existing && { kind: "duplicate", registration: toStored(existing) };
    }
    if (options.forward) {
      await trx.insertInto("outbox").values(newOutboxRow(inserted.id, receivedAt)).execute();
    }
    return { kind: "created", registration: toStored(inserted) };
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Without forwarding the single INSERT is atomic on its own; skip BEGIN/COMMIT.
    const result = options.forward ? await db.transaction().execute(write) : await write(db);
    if (result) return result;
  }
  throw new Error("The registration vanished while it was being stored; try again");
}

/**
 * Writes many registrations in one transaction: one multi-row INSERT ... ON
 * CONFLICT DO NOTHING, one look-up for keys seen before, one outbox INSERT, one
 * commit. Within the batch the first use of a key creates; repeats are duplicates.
 */
export async function insertRegistrationBatch(
  db: Db,
  inputs: readonly NewRegistration[],
  options: { forward: boolean; now: Date },
): Promise<RegisterResult[]> {
  const receivedAt = options.now.toISOString();
  const firstIndex = new Map<string, number>();
  const rows: Array<Insertable<RegistrationsTable>> = [];
  inputs.forEach((input, i) => {
    if (firstIndex.has(input.idempotencyKey)) return;
    firstIndex.set(input.idempotencyKey, i);
    rows.push(newRow(input, receivedAt));
  });
  const { created, stored } = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("registrations")
      .values(rows)
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returningAll()
      .execute();
    const created = new Set(inserted.map((r) => r.idempotency_key));
    const seenBefore = rows.map((r) => r.idempotency_key).filter((k) => !created.has(k));
    const existing =
      seenBefore.length > 0
        ? await trx
            .selectFrom("registrations")
            .selectAll()
            .where("idempotency_key", "in", seenBefore)
            .execute()
        : [];
    if (options.forward && inserted.length > 0) {
      await trx
        .insertInto("outbox")
        .values(inserted.map((r) => newOutboxRow(r.id, receivedAt)))
        .execute();
    }
    const stored = new Map([...inserted, ...existing].map((r) => [r.idempotency_key, r]));
    return { created, stored };
  });
  return Promise.all(
    inputs.map((input, i) => {
      const row = stored.get(input.idempotencyKey);
      // Erased between the conflict and the look-up: store it again on its own.
      if (!row) return insertRegistration(db, input, options);
      const isCreator =
        created.has(input.idempotencyKey) && firstIndex.get(input.idempotencyKey) === i;
      return { kind: isCreator ? "created" : "duplicate", registration: toStored(row) } as const;
    }),
  );
}

export async function countRegistrations(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom("registrations")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Most recent first. */
export async function listRegistrations(db: Db, limit: number): Promise<StoredRegistration[]> {
  const rows = await db
    .selectFrom("registrations")
    .selectAll()
    .orderBy("received_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toStored);
}

/** Every registration, oldest first, for export. */
export async function allRegistrations(db: Db): Promise<StoredRegistration[]> {
  const rows = await db
    .selectFrom("registrations")
    .selectAll()
    .orderBy("received_at", "asc")
    .orderBy("id")
    .execute();
  return rows.map(toStored);
}

/** Subject access: every registration for this address, matched without regard to letter case. */
export async function findByEmail(db: Db, email: string): Promise<RegistrationWithDelivery[]> {
  const rows = await db
    .selectFrom("registrations as r")
    .leftJoin("outbox as o", "o.registration_id", "r.id")
    .selectAll("r")
    .select([
      "o.status as delivery_status",
      "o.attempts as delivery_attempts",
      "o.delivered_at as delivery_delivered_at",
    ])
    .where((eb) => eb(eb.fn("lower", ["r.email"]), "=", email.trim().toLowerCase()))
    .orderBy("r.received_at", "asc")
    .execute();
  return rows.map((row) => ({
    ...toStored(row),
    delivery: row.delivery_status
      ? {
          status: row.delivery_status,
          attempts: row.delivery_attempts ?? 0,
          deliveredAt: row.delivery_delivered_at,
        }
      : null,
  }));
}

/** Deletes registrations received before the cut-off; their outbox rows go with them (ON DELETE CASCADE). */
export async function purgeReceivedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom("registrations")
    .where("received_at", "<", cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
