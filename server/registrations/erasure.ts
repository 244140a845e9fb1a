import { createHmac, randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import { type Database, type Dialect, loadKey } from "../db/schema.ts";
import { type InFlight, stopSends } from "../outbox/in-flight.ts";

type Db = Kysely<Database>;

/** What staff see about an erasure: no personal data, and what is left to do. */
export type ErasureRecord = {
  erasedAt: string;
  registrations: number;
  /** A copy had been, or may have been, sent to the spreadsheet. */
  forwardedToSpreadsheet: boolean;
  /** Ids of the registrations to delete from the spreadsheet (its id column). */
  spreadsheetIds: string[];
};

export type EraseResult = {
  registrations: number;
  outbox: number;
  /** Ids of the erased emails' outbox rows: their local copies (DATA_DIR/mail) go too. */
  mailIds: string[];
  /** Ids of erased registrations that had (or may have) reached the spreadsheet. */
  forwardedIds: string[];
};

const normalise = (email: string) => email.trim().toLowerCase();

/** HMAC-SHA256 of the trimmed, lower-cased address with the database's erasure key, hex. */
export async function emailHash(db: Db, email: string): Promise<string> {
  return (await emailHasher(db))(email);
}

/** `emailHash` with the key read once (the key never changes). */
export async function emailHasher(db: Db): Promise<(email: string) => string> {
  const key = await loadKey(db, "erasure_key");
  return (email) => createHmac("sha256", key).update(normalise(email), "utf8").digest("hex");
}

/**
 * Locks the registrations of an address for the rest of the transaction, before any of
 * their outbox rows: the mail worker's handoff gate takes the same locks in the same order
 * (server/outbox/store.ts), so a message is either kept back or seen here in flight.
 * Returns the mail rows in flight for these registrations.
 */
export async function lockAddress(
  trx: Db,
  dialect: Dialect,
  normalisedEmail: string,
  now: Date,
): Promise<InFlight[]> {
  const ids = trx
    .selectFrom("registrations")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", normalisedEmail));
  if (dialect === "postgres") await ids.forUpdate().execute();
  const rows = await trx
    .selectFrom("outbox")
    .select(["id", "sending_until"])
    .where("kind", "=", "mail")
    .where("status", "=", "pending")
    .where("sending_until", ">", now.toISOString())
    .where("registration_id", "in", ids)
    .execute();
  return rows.map((r) => ({ outboxId: r.id, sendingUntil: r.sending_until ?? "" }));
}

/**
 * Right to erasure: deletes the registrations for this address (any letter case)
 * and their outbox rows (queued emails included), and leaves a record without the address. A row counts as
 * forwarded once delivered or once any attempt was made: an attempt that timed
 * out may still have reached the sheet. Emails being sent to the address are stopped before
 * this returns (docs/decisions/095): nothing reaches the person after it.
 */
export async function eraseByEmail(
  db: Db,
  dialect: Dialect,
  email: string,
  now: Date,
): Promise<EraseResult> {
  const normalised = normalise(email);
  const hash = await emailHash(db, email);
  let inFlight: InFlight[] = [];
  const result = await db.transaction().execute(async (trx) => {
    inFlight = await lockAddress(trx, dialect, normalised, now);
    const rows = await trx
      .selectFrom("registrations as r")
      // Only spreadsheet deliveries say whether a copy left; emails went to the person.
      .leftJoin("outbox as o", (join) =>
        join.onRef("o.registration_id", "=", "r.id").on("o.kind", "=", "sheet"),
      )
      .select(["r.id as id", "o.status as status", "o.attempts as attempts"])
      .where((eb) => eb(eb.fn("lower", ["r.email"]), "=", normalised))
      .orderBy("r.received_at")
      .execute();
    if (rows.length === 0) return { registrations: 0, outbox: 0, mailIds: [], forwardedIds: [] };
    const ids = [...new Set(rows.map((r) => r.id))];
    const mail = await trx
      .selectFrom("outbox")
      .select("id")
      .where("kind", "=", "mail")
      .where("registration_id", "in", ids)
      .execute();
    const forwardedIds = [
      ...new Set(
        rows.filter((r) => r.status === "delivered" || (r.attempts ?? 0) > 0).map((r) => r.id),
      ),
    ];
    const outbox = await trx
      .deleteFrom("outbox")
      .where("registration_id", "in", ids)
      .executeTakeFirst();
    const registrations = await trx
      .deleteFrom("registrations")
      .where("id", "in", ids)
      .executeTakeFirst();
    await trx
      .insertInto("erasures")
      .values({
        id: randomUUID(),
        email_hash: hash,
        erased_at: now.toISOString(),
        registrations: Number(registrations.numDeletedRows),
        forwarded: forwardedIds.length > 0 ? 1 : 0,
        forwarded_ids: JSON.stringify(forwardedIds),
      })
      .execute();
    return {
      registrations: Number(registrations.numDeletedRows),
      outbox: Number(outbox.numDeletedRows),
      mailIds: mail.map((m) => m.id),
      forwardedIds,
    };
  });
  await stopSends(inFlight);
  return result;
}

function toRecord(row: {
  erased_at: string;
  registrations: number;
  forwarded: number;
  forwarded_ids: string;
}): ErasureRecord {
  return {
    erasedAt: row.erased_at,
    registrations: Number(row.registrations),
    forwardedToSpreadsheet: Number(row.forwarded) === 1,
    spreadsheetIds: JSON.parse(row.forwarded_ids) as string[],
  };
}

/** Erasures of this address, oldest first. */
export async function erasuresFor(db: Db, email: string): Promise<ErasureRecord[]> {
  const rows = await db
    .selectFrom("erasures")
    .selectAll()
    .where("email_hash", "=", await emailHash(db, email))
    .orderBy("erased_at")
    .execute();
  return rows.map(toRecord);
}

/** Erasures whose registrations had reached the spreadsheet, oldest first. */
export async function forwardedErasures(db: Db): Promise<ErasureRecord[]> {
  const rows = await db
    .selectFrom("erasures")
    .selectAll()
    .where("forwarded", "=", 1)
    .orderBy("erased_at")
    .execute();
  return rows.map(toRecord);
}
