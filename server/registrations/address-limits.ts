import { type Kysely, sql } from "kysely";

import type { Database, Dialect, OutboxStatus } from "../db/schema.ts";

type Db = Kysely<Database>;

/**
 * How often one address may be sent a confirmation email, whoever asks and from
 * wherever (docs/decisions/102). The form mails the address typed into it, so without
 * these anyone could make the clinic's domain mail a stranger as often as they like.
 * The one place these numbers live.
 */
export const CONFIRMATION_LIMITS = {
  /** Most confirmation emails queued for one address in any 24 hours. */
  perDay: 3,
  /** Least time between two confirmation emails to one address. */
  minGapMinutes: 60,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The key an address is compared by everywhere: trimmed, lower case (SQL `lower(email)`). */
export function addressKey(email: string): string {
  return email.trim().toLowerCase();
}

/** What storage already holds for one address, from before this registration. */
export type AddressHistory = {
  /** The latest unsubscribe of any registration of the address, or null. */
  lastUnsubscribedAt: string | null;
  /** The latest confirmation of any registration of the address, or null. */
  lastConfirmedAt: string | null;
  /** Every confirmation email queued for the address that storage still holds. */
  confirmations: Array<{ createdAt: string; status: OutboxStatus }>;
};

export const emptyHistory = (): AddressHistory => ({
  lastUnsubscribedAt: null,
  lastConfirmedAt: null,
  confirmations: [],
});

/**
 * Whether the address is off the list: it unsubscribed, and no registration of it was
 * confirmed after that (docs/decisions/101). No mail of any kind goes to it.
 */
export function isUnsubscribed(history: AddressHistory): boolean {
  const { lastUnsubscribedAt: off, lastConfirmedAt: on } = history;
  return off !== null && (on === null || on <= off);
}

/**
 * Whether a new registration of this address may queue a confirmation email now: not
 * for an unsubscribed address; not while one is still waiting to go; not within
 * `minGapMinutes` of the last; at most `perDay` in 24 hours.
 */
export function mayQueueConfirmation(history: AddressHistory, now: Date): boolean {
  if (isUnsubscribed(history)) return false;
  const { confirmations } = history;
  if (confirmations.some((c) => c.status === "pending")) return false;
  const gapFrom = new Date(now.getTime() - CONFIRMATION_LIMITS.minGapMinutes * 60_000);
  const dayFrom = new Date(now.getTime() - DAY_MS).toISOString();
  if (confirmations.some((c) => c.createdAt > gapFrom.toISOString())) return false;
  return confirmations.filter((c) => c.createdAt > dayFrom).length < CONFIRMATION_LIMITS.perDay;
}

/** ISO timestamps compare as strings (docs/decisions/030). */
function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

type HistoryRow = {
  email: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  mail_created_at: string | null;
  mail_status: OutboxStatus | null;
};

/**
 * The history of each address, read in one query through the lower(email) index and
 * the outbox's registration_id index.
 *
 * PostgreSQL plans a join from statistics, and a table that was never analysed (a new
 * deployment's first day, a benchmark's fresh schema) has none: the join then read
 * every registration or every mail row of the outbox, a few milliseconds per batch at
 * 20,000 rows. So there the query starts from the keys and looks each one up
 * (docs/decisions/127): per key, a lateral subquery on lower(email); per registration
 * found, a lateral subquery on the outbox by registration_id alone. `offset 0` keeps
 * the planner from pulling either subquery up into a join it could plan as a scan, and
 * keeps the kind and topic conditions outside, so the outbox_kind_due_idx index, which
 * unanalysed tables make look selective, cannot be chosen for the outbox side. SQLite's
 * planner takes both indexes for the plain join without statistics, so it keeps it.
 */
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
      ? await historyRowsByLookup(db, distinct, exceptIds)
      : await historyRowsByJoin(db, distinct, exceptIds);
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

/** PostgreSQL: one index look-up per key, and one per registration found. */
async function historyRowsByLookup(
  db: Db,
  keys: readonly string[],
  exceptIds: readonly string[],
): Promise<HistoryRow[]> {
  const { rows } = await sql<HistoryRow>`
    select r.email, r.confirmed_at, r.unsubscribed_at,
      o.created_at as mail_created_at, o.status as mail_status
    from unnest(${keys}::text[]) as k(key)
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
    ) as o on o.kind = 'mail' and o.topic = 'confirmation'`.execute(db);
  return rows;
}

/** SQLite: the join, which its planner runs through both indexes as it is. */
async function historyRowsByJoin(
  db: Db,
  keys: readonly string[],
  exceptIds: readonly string[],
): Promise<HistoryRow[]> {
  let query = db
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
    .where((eb) => eb(eb.fn("lower", ["r.email"]), "in", [...keys]));
  if (exceptIds.length > 0) query = query.where("r.id", "not in", exceptIds);
  return query.execute();
}
