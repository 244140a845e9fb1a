import { type Insertable, type Kysely, type Selectable, sql } from "kysely";

import {
  addressHistories,
  addressKey,
  emptyHistory,
  mayQueueConfirmation,
} from "./address-limits.ts";
import type {
  NewRegistration,
  RegisterResult,
  StoredRegistration,
} from "../../contract/registrations.ts";
import type {
  Database,
  Dialect,
  OutboxKind,
  OutboxStatus,
  OutboxTable,
  OutboxTopic,
  RegistrationsTable,
} from "../db/schema.ts";
import { timeOrderedId } from "../db/time-ordered-id.ts";

type Db = Kysely<Database>;

type DeliveryState = { status: OutboxStatus; attempts: number; deliveredAt: string | null };

export type RegistrationWithDelivery = StoredRegistration & {
  /** Forwarding to the clinic's spreadsheet; null when forwarding was off. */
  delivery: DeliveryState | null;
  /** Every email queued for this registration, oldest first. */
  emails: Array<DeliveryState & { topic: OutboxTopic; announcementId: string | null }>;
};

export function toStored(row: Selectable<RegistrationsTable>): StoredRegistration {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    clientTimestamp: row.client_timestamp,
    receivedAt: row.received_at,
    idempotencyKey: row.idempotency_key,
    consent:
      row.consent_version === null
        ? null
        : {
            version: row.consent_version,
            wantsUpdates: Number(row.wants_updates) === 1,
            at: row.consent_at ?? row.received_at,
          },
    confirmedAt: row.confirmed_at,
    unsubscribedAt: row.unsubscribed_at,
  };
}

function newRow(input: NewRegistration, receivedAt: string): Insertable<RegistrationsTable> {
  return {
    id: timeOrderedId(),
    name: input.name,
    email: input.email,
    phone: input.phone,
    message: input.message,
    client_timestamp: input.clientTimestamp,
    received_at: receivedAt,
    idempotency_key: input.idempotencyKey,
    consent_version: input.consent.version,
    consent_at: receivedAt,
    wants_updates: input.consent.wantsUpdates ? 1 : 0,
  };
}

export function newOutboxRow(
  registrationId: string,
  at: string,
  what: { kind: OutboxKind; topic: OutboxTopic } & Partial<
    Pick<OutboxTable, "announcement_id" | "dedupe_key">
  >,
): Insertable<OutboxTable> {
  return {
    id: timeOrderedId(),
    registration_id: registrationId,
    status: "pending",
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
    ...what,
  };
}

/** What storing registrations needs to know besides the rows. */
export type InsertOptions = { forward: boolean; now: Date; dialect: Dialect };

/**
 * What new registrations queue, in their own transaction: with forwarding on, the
 * delivery to the spreadsheet; and the confirmation email (with SMTP_URL unset it is
 * written to a file) only where the address's limits allow one now
 * (docs/decisions/102): never to an unsubscribed address, never while one is waiting,
 * at most a few a day. Either way the registration is stored and acknowledged the same,
 * so the form tells no one whether an address is already known.
 */
async function outboxRowsFor(
  trx: Db,
  inserted: readonly InsertedRow[],
  options: InsertOptions,
): Promise<Array<Insertable<OutboxTable>>> {
  const at = options.now.toISOString();
  // Addresses PostgreSQL found no other registration of have no history to read.
  const seen = inserted.filter((r) => r.address_seen !== false);
  const histories = await addressHistories(
    trx,
    options.dialect,
    seen.map((r) => addressKey(r.email)),
    inserted.map((r) => r.id),
  );
  const rows: Array<Insertable<OutboxTable>> = [];
  for (const registration of inserted) {
    const key = addressKey(registration.email);
    const history = histories.get(key) ?? emptyHistory();
    histories.set(key, history);
    if (mayQueueConfirmation(history, options.now)) {
      rows.push(newOutboxRow(registration.id, at, { kind: "mail", topic: "confirmation" }));
      history.confirmations.push({ createdAt: at, status: "pending" });
    }
    if (options.forward) {
      rows.push(newOutboxRow(registration.id, at, { kind: "spreadsheet", topic: "registration" }));
    }
  }
  return rows;
}

/** A stored row, and on PostgreSQL whether its address has other registrations. */
type InsertedRow = Selectable<RegistrationsTable> & { address_seen?: boolean };

/**
 * INSERT ... ON CONFLICT (idempotency_key) DO NOTHING, returning the rows it stored. On
 * PostgreSQL each stored row also takes its address's lock until commit, through
 * `registration_address_seen` (migration 007, docs/decisions/129), and says whether any
 * other registration of the address exists. The lock makes concurrent registrations of
 * one address wait for each other, so two cannot both find "no confirmation waiting" and
 * both queue one. Rows go in ordered by address, so every transaction takes its locks in
 * the same order and none waits on another in a circle. SQLite writes one transaction at
 * a time and needs no lock.
 */
async function insertRows(
  trx: Db,
  rows: ReadonlyArray<Insertable<RegistrationsTable>>,
  dialect: Dialect,
): Promise<InsertedRow[]> {
  const byAddress = [...rows].sort((a, b) => {
    const [x, y] = [addressKey(a.email), addressKey(b.email)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return trx
    .insertInto("registrations")
    .values(byAddress)
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returningAll()
    .$if(dialect === "postgres", (q) =>
      q.returning(sql<boolean>`registration_address_seen(lower(email), id)`.as("address_seen")),
    )
    .execute();
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
 * one row; the caller gets that row back as a duplicate. The confirmation email and,
 * with forwarding on, the spreadsheet delivery commit in the same transaction.
 */
export async function insertRegistration(
  db: Db,
  input: NewRegistration,
  options: InsertOptions,
): Promise<RegisterResult> {
  const receivedAt = options.now.toISOString();
  const row = newRow(input, receivedAt);
  const write = async (trx: Db): Promise<RegisterResult | undefined> => {
    const [inserted] = await insertRows(trx, [row], options.dialect);
    if (!inserted) {
      const existing = await findByKey(trx, input.idempotencyKey);
      // Undefined only if the first row was erased in between: then insert afresh.
      return existing && { kind: "duplicate", registration: toStored(existing) };
    }
    const queued = await outboxRowsFor(trx, [inserted], options);
    if (queued.length > 0) await trx.insertInto("outbox").values(queued).execute();
    return { kind: "created", registration: toStored(inserted) };
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await db.transaction().execute(write);
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
  options: InsertOptions,
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
    const inserted = await insertRows(trx, rows, options.dialect);
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
    if (inserted.length > 0) {
      const queued = await outboxRowsFor(trx, inserted, options);
      if (queued.length > 0) await trx.insertInto("outbox").values(queued).execute();
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
    .selectFrom("registrations")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", addressKey(email)))
    .orderBy("received_at", "asc")
    .execute();
  if (rows.length === 0) return [];
  const outbox = await db
    .selectFrom("outbox")
    .select([
      "registration_id",
      "kind",
      "topic",
      "status",
      "attempts",
      "delivered_at",
      "announcement_id",
    ])
    .where(
      "registration_id",
      "in",
      rows.map((r) => r.id),
    )
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

/** Deletes registrations received before the cut-off; their outbox rows go with them (ON DELETE CASCADE). */
export async function purgeReceivedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom("registrations")
    .where("received_at", "<", cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes registrations that were sent a confirmation email (they have a consent
 * version) and never confirmed, received before the cut-off. Queued mail goes with
 * them (ON DELETE CASCADE).
 */
export async function purgeUnconfirmedBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom("registrations")
    .where("confirmed_at", "is", null)
    .where("consent_version", "is not", null)
    .where("received_at", "<", cutoff.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
