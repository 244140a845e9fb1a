import { type Insertable, type Selectable, sql } from "kysely";

import type {
  NewRegistration,
  RegisterResult,
  StoredRegistration,
} from "../../contract/registrations.ts";
import {
  type Db,
  type DatabaseHandle,
  type Dialect,
  later,
  type OutboxKind,
  type OutboxStatus,
  type OutboxTable,
  type OutboxTopic,
  type RegistrationsTable,
} from "../db/schema.ts";
import {
  createGroupCommit,
  guardAvailability,
  isUnavailableError,
  timeOrderedId,
} from "../db/writes.ts";
import { addressKey } from "../shared/address.ts";

// Per address, whoever asks: the form mails whatever address is typed in (decision 102).
export const CONFIRMATION_LIMITS = { perDay: 3, minGapMinutes: 60 } as const;

export type AddressHistory = {
  lastUnsubscribedAt: string | null;
  lastConfirmedAt: string | null;
  confirmations: Array<{ createdAt: string; status: OutboxStatus }>;
};

const emptyHistory = (): AddressHistory => ({
  lastUnsubscribedAt: null,
  lastConfirmedAt: null,
  confirmations: [],
});

/** Unsubscribed, and no registration of it confirmed since (decision 101): no mail at all. */
export function isUnsubscribed(history: AddressHistory): boolean {
  const { lastUnsubscribedAt: off, lastConfirmedAt: on } = history;
  return off !== null && (on === null || on <= off);
}

/** Not while one waits, not within `minGapMinutes` of the last, at most `perDay` a day. */
export function mayQueueConfirmation(history: AddressHistory, now: Date): boolean {
  if (isUnsubscribed(history)) return false;
  const { confirmations } = history;
  if (confirmations.some((c) => c.status === "pending")) return false;
  const gapFrom = new Date(now.getTime() - CONFIRMATION_LIMITS.minGapMinutes * 60_000);
  const dayFrom = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  if (confirmations.some((c) => c.createdAt > gapFrom.toISOString())) return false;
  return confirmations.filter((c) => c.createdAt > dayFrom).length < CONFIRMATION_LIMITS.perDay;
}

type HistoryRow = {
  email: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  mail_created_at: string | null;
  mail_status: OutboxStatus | null;
};

// Never-analysed PostgreSQL tables made a plain join scan, so there lateral look-ups start
// from the keys, `offset 0` keeping the planner off outbox_kind_due_idx (decision 127).
export async function addressHistories(
  db: Db,
  dialect: Dialect,
  keys: readonly string[],
  exceptIds: readonly string[],
): Promise<Map<string, AddressHistory>> {
  const histories = new Map<string, AddressHistory>();
  if (keys.length === 0) return histories;
  const distinct = [...new Set(keys)];
  const rows =
    dialect === "postgres"
      ? (
          await sql<HistoryRow>`
    select r.email, r.confirmed_at, r.unsubscribed_at,
      o.created_at as mail_created_at, o.status as mail_status
    from unnest(${distinct}::text[]) as k(key)
    cross join lateral (
      select id, email, confirmed_at, unsubscribed_at
      from registrations
      where lower(email) = k.key and id <> all(${exceptIds}::text[])
      offset 0
    ) as r
    left join lateral (
      select kind, topic, created_at, status
      from outbox
      where registration_id = r.id
      offset 0
    ) as o on o.kind = 'mail' and o.topic = 'confirmation'`.execute(db)
        ).rows
      : await db
          .selectFrom("registrations as r")
          .leftJoin("outbox as o", (join) =>
            join
              .onRef("o.registration_id", "=", "r.id")
              .on("o.kind", "=", "mail")
              .on("o.topic", "=", "confirmation"),
          )
          .select([
            "r.email",
            "r.confirmed_at",
            "r.unsubscribed_at",
            "o.created_at as mail_created_at",
            "o.status as mail_status",
          ])
          .where((eb) => eb(eb.fn("lower", ["r.email"]), "in", distinct))
          .$if(exceptIds.length > 0, (q) => q.where("r.id", "not in", exceptIds))
          .execute();
  for (const row of rows) {
    const key = addressKey(row.email);
    const history = histories.get(key) ?? emptyHistory();
    histories.set(key, history);
    history.lastUnsubscribedAt = later(history.lastUnsubscribedAt, row.unsubscribed_at);
    history.lastConfirmedAt = later(history.lastConfirmedAt, row.confirmed_at);
    if (row.mail_created_at !== null && row.mail_status !== null)
      history.confirmations.push({ createdAt: row.mail_created_at, status: row.mail_status });
  }
  return histories;
}

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
    attribution:
      Number(row.source_recorded) === 1
        ? {
            source: row.utm_source,
            medium: row.utm_medium,
            campaign: row.utm_campaign,
            referrer: row.referrer_host,
          }
        : null,
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
    // Every row names every column: a multi-row INSERT cannot say DEFAULT on SQLite.
    source_recorded: input.attribution ? 1 : 0,
    utm_source: input.attribution?.source ?? null,
    utm_medium: input.attribution?.medium ?? null,
    utm_campaign: input.attribution?.campaign ?? null,
    referrer_host: input.attribution?.referrer ?? null,
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

type InsertOptions = { spreadsheet: boolean; now: Date; dialect: Dialect };

type InsertedRow = Selectable<RegistrationsTable> & { address_seen?: boolean };

// Stored and acknowledged the same whether or not mail is queued: the form reveals no address.
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
    if (options.spreadsheet) {
      rows.push(newOutboxRow(registration.id, at, { kind: "spreadsheet", topic: "registration" }));
    }
  }
  return rows;
}

// Each row takes its address's lock on PostgreSQL (decision 129), so concurrent ones cannot
// both queue a confirmation; sorted, so the locks are never taken in a circle.
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

// A key maps to one row: a concurrent or repeated use of it gets that row as a duplicate.
async function insertRegistrations(
  db: Db,
  inputs: readonly NewRegistration[],
  options: InsertOptions,
  attempt = 1,
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
      if (!row) {
        // Erased between the conflict and the look-up: store it again on its own.
        if (attempt === 3) throw new Error("The registration vanished while it was being stored");
        return insertRegistrations(db, [input], options, attempt + 1).then(([again]) => again!);
      }
      const isCreator =
        created.has(input.idempotencyKey) && firstIndex.get(input.idempotencyKey) === i;
      return { kind: isCreator ? "created" : "duplicate", registration: toStored(row) } as const;
    }),
  );
}

type RegisterDependencies = DatabaseHandle & {
  now: () => Date;
  spreadsheet: boolean;
  wake: { spreadsheet(): void; mail(): void };
  /** Told of each write, so /healthz knows (decision 073). */
  observeWrite(error?: unknown): void;
  maxBatch?: number;
  writeConcurrency?: number;
};

/** Registrations arriving while a batch commits share the next transaction (decision 031). */
export function createRegister({
  db,
  dialect,
  now,
  spreadsheet,
  wake,
  observeWrite,
  maxBatch = 200,
  writeConcurrency = dialect === "sqlite" ? 1 : 4,
}: RegisterDependencies): (input: NewRegistration) => Promise<RegisterResult> {
  const submit = createGroupCommit<NewRegistration, RegisterResult>(
    async (inputs) => {
      const options = { spreadsheet, now: now(), dialect };
      try {
        const results = await insertRegistrations(db, inputs, options);
        return results.map((value) => ({ status: "fulfilled", value }));
      } catch (error) {
        if (inputs.length === 1 || isUnavailableError(error)) throw error;
        // One bad row must not fail its neighbours: write each on its own.
        return Promise.allSettled(
          inputs.map((input) => insertRegistrations(db, [input], options).then(([r]) => r!)),
        );
      }
    },
    { maxBatch, concurrency: writeConcurrency },
  );
  return (input) =>
    guardAvailability(async () => {
      const result = await submit(input).catch((error: unknown) => {
        observeWrite(error);
        throw error;
      });
      observeWrite();
      if (result.kind === "created") {
        wake.spreadsheet();
        wake.mail();
      }
      return result;
    });
}
