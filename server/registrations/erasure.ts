import { randomUUID } from "node:crypto";

import type { Selectable } from "kysely";

import type { ErasureRecord } from "../../contract/registrations.ts";
import type { Database, Db, Dialect } from "../db/schema.ts";
import { type InFlight, stopSends } from "../outbox/store.ts";
import { addressKey, emailHasher } from "../shared/address.ts";

/** Registrations before outbox rows, as `handOff` locks them; returns the mail in flight. */
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

// Leaves a record without the address; returns once no email can reach the person.
export async function eraseByEmail(db: Db, dialect: Dialect, email: string, now: Date) {
  const normalised = addressKey(email);
  const hash = (await emailHasher(db))(email);
  let inFlight: InFlight[] = [];
  const result = await db.transaction().execute(async (trx) => {
    inFlight = await lockAddress(trx, dialect, normalised, now);
    const ids = (
      await trx
        .selectFrom("registrations")
        .select("id")
        .where((eb) => eb(eb.fn("lower", ["email"]), "=", normalised))
        .orderBy("received_at")
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return { registrations: 0, outbox: 0, mailIds: [], spreadsheetIds: [] };
    const outbox = await trx
      .deleteFrom("outbox")
      .where("registration_id", "in", ids)
      .returning(["id", "registration_id", "kind", "status", "attempts"])
      .execute();
    // Any attempt counts as arrived: one that timed out may have.
    const reached = new Set(
      outbox
        .filter((o) => o.kind === "spreadsheet" && (o.status === "delivered" || o.attempts > 0))
        .map((o) => o.registration_id),
    );
    const spreadsheetIds = ids.filter((id) => reached.has(id));
    const deleted = await trx.deleteFrom("registrations").where("id", "in", ids).executeTakeFirst();
    const registrations = Number(deleted.numDeletedRows);
    await trx
      .insertInto("erasures")
      .values({
        id: randomUUID(),
        email_hash: hash,
        erased_at: now.toISOString(),
        registrations,
        sent_to_spreadsheet: spreadsheetIds.length > 0 ? 1 : 0,
        spreadsheet_ids: JSON.stringify(spreadsheetIds),
      })
      .execute();
    const mailIds = outbox.filter((o) => o.kind === "mail").map((o) => o.id);
    return { registrations, outbox: outbox.length, mailIds, spreadsheetIds };
  });
  await stopSends(inFlight);
  return result;
}

function toRecord(row: Selectable<Database["erasures"]>): ErasureRecord {
  return {
    erasedAt: row.erased_at,
    registrations: Number(row.registrations),
    sentToSpreadsheet: Number(row.sent_to_spreadsheet) === 1,
    spreadsheetIds: JSON.parse(row.spreadsheet_ids) as string[],
  };
}

const erasures = (db: Db) => db.selectFrom("erasures").selectAll().orderBy("erased_at");

export async function erasuresFor(db: Db, email: string): Promise<ErasureRecord[]> {
  const hash = (await emailHasher(db))(email);
  return (await erasures(db).where("email_hash", "=", hash).execute()).map(toRecord);
}

export async function spreadsheetErasures(db: Db): Promise<ErasureRecord[]> {
  return (await erasures(db).where("sent_to_spreadsheet", "=", 1).execute()).map(toRecord);
}
