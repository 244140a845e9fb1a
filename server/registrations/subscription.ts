import type { Kysely } from "kysely";

import { verifyToken } from "./links.ts";
import { newOutboxRow } from "./repository.ts";
import type {
  ConfirmResult,
  UnsubscribeCheck,
  UnsubscribeResult,
} from "../../contract/registrations.ts";
import type { Database } from "../db/schema.ts";

type Db = Kysely<Database>;

/** What acting on a link needs; `forward` queues the new status for the spreadsheet. */
export type LinkContext = { db: Db; key: string; now: Date; forward: boolean };

async function registrationById(db: Db, id: string) {
  return db
    .selectFrom("registrations")
    .select(["id", "email", "confirmed_at", "unsubscribed_at"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Double opt-in (docs/decisions/087). A genuine, unexpired link confirms once; opening
 * it again says so and changes nothing. An expired link still reports a registration
 * that was confirmed in time, so an old email never tells a confirmed person otherwise.
 */
export async function confirmRegistration(ctx: LinkContext, token: string): Promise<ConfirmResult> {
  const link = verifyToken(ctx.key, token, "confirm", ctx.now);
  if (!link.ok && link.reason === "invalid") return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  if (row.confirmed_at !== null) return { kind: "confirmed", firstTime: false };
  if (!link.ok) return { kind: "expired" };
  const at = ctx.now.toISOString();
  const firstTime = await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("registrations")
      .set({ confirmed_at: at })
      .where("id", "=", row.id)
      .where("confirmed_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false; // a concurrent click won
    if (ctx.forward) {
      await trx
        .insertInto("outbox")
        .values(newOutboxRow(row.id, at, { kind: "sheet", topic: "status" }))
        .execute();
    }
    return true;
  });
  return { kind: "confirmed", firstTime };
}

export async function checkUnsubscribeLink(
  ctx: Omit<LinkContext, "forward">,
  token: string,
): Promise<UnsubscribeCheck> {
  const link = verifyToken(ctx.key, token, "unsubscribe", ctx.now);
  if (!link.ok) return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  return { kind: "valid", alreadyUnsubscribed: row.unsubscribed_at !== null };
}

/**
 * Unsubscribes the address the link was sent to: every registration of it, in any
 * letter case, and drops the mail still queued for them. Repeating it changes nothing
 * (RFC 8058 one-click: a provider may send the POST more than once).
 */
export async function unsubscribeByLink(
  ctx: LinkContext,
  token: string,
): Promise<UnsubscribeResult> {
  const link = verifyToken(ctx.key, token, "unsubscribe", ctx.now);
  if (!link.ok) return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  const at = ctx.now.toISOString();
  const firstTime = await ctx.db.transaction().execute(async (trx) => {
    const sameAddress = await trx
      .selectFrom("registrations")
      .select(["id", "unsubscribed_at"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", row.email.trim().toLowerCase()))
      .execute();
    const ids = sameAddress.map((r) => r.id);
    const newlyUnsubscribed = sameAddress
      .filter((r) => r.unsubscribed_at === null)
      .map((r) => r.id);
    if (newlyUnsubscribed.length > 0) {
      await trx
        .updateTable("registrations")
        .set({ unsubscribed_at: at })
        .where("id", "in", newlyUnsubscribed)
        .execute();
    }
    await trx
      .deleteFrom("outbox")
      .where("kind", "=", "mail")
      .where("status", "=", "pending")
      .where("registration_id", "in", ids)
      .execute();
    if (ctx.forward && newlyUnsubscribed.length > 0) {
      await trx
        .insertInto("outbox")
        .values(
          newlyUnsubscribed.map((id) => newOutboxRow(id, at, { kind: "sheet", topic: "status" })),
        )
        .execute();
    }
    return newlyUnsubscribed.length > 0;
  });
  return { kind: "unsubscribed", firstTime };
}
