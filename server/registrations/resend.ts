import { type Kysely, sql } from "kysely";

import {
  addressHistories,
  addressKey,
  isUnsubscribed,
  mayQueueConfirmation,
  newOutboxRow,
} from "./register.ts";
import type { Database, Dialect } from "../db/schema.ts";

/** Why a confirmation email was, or was not, queued again. */
export type ResendResult = { kind: "queued" | "gone" | "confirmed" | "unsubscribed" | "limit" };

/**
 * Staff re-send the confirmation email of an address's newest registration, within the
 * same per-address limits as the form (decision 152): the history is read and the row
 * queued in one transaction, under the address lock the INSERT takes on PostgreSQL.
 */
export async function resendConfirmation(
  db: Kysely<Database>,
  dialect: Dialect,
  email: string,
  now: Date,
): Promise<ResendResult> {
  const key = addressKey(email);
  return db.transaction().execute(async (trx) => {
    if (dialect === "postgres")
      await sql`select registration_address_seen(${key}, '')`.execute(trx);
    const newest = await trx
      .selectFrom("registrations")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", key))
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!newest) return { kind: "gone" };
    const history = (await addressHistories(trx, dialect, [key], [])).get(key);
    if (history && isUnsubscribed(history)) return { kind: "unsubscribed" };
    if (history?.lastConfirmedAt) return { kind: "confirmed" };
    if (history && !mayQueueConfirmation(history, now)) return { kind: "limit" };
    await trx
      .insertInto("outbox")
      .values(newOutboxRow(newest.id, now.toISOString(), { kind: "mail", topic: "confirmation" }))
      .execute();
    return { kind: "queued" };
  });
}
