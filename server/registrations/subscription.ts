import type { ExpressionBuilder, Kysely } from "kysely";

import { lockAddress } from "./erasure.ts";
import { verifyToken } from "./links.ts";
import { newOutboxRow } from "./register.ts";
import type {
  ConfirmCheck,
  ConfirmResult,
  RejoinResult,
  UnsubscribeCheck,
  UnsubscribeResult,
} from "../../contract/registrations.ts";
import type { Database, Dialect } from "../db/schema.ts";
import { type InFlight, stopSends } from "../outbox/in-flight.ts";

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

/** Every registration of an address, in any letter case. */
const ofAddress = (email: string) => (eb: ExpressionBuilder<Database, "registrations">) =>
  eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase());

/**
 * A look at a confirm link (GET, HEAD, `.data`): never confirms, since link scanners
 * open links (docs/decisions/100). A registration that was confirmed and later
 * unsubscribed is still to be pressed: pressing brings it back.
 */
export async function checkConfirmLink(
  ctx: Omit<LinkContext, "forward">,
  token: string,
): Promise<ConfirmCheck> {
  const link = verifyToken(ctx.key, token, "confirm", ctx.now);
  if (!link.ok && link.reason === "invalid") return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  const done = row.confirmed_at !== null && row.unsubscribed_at === null;
  if (done) return { kind: "valid", alreadyConfirmed: true };
  if (!link.ok) return { kind: "expired" };
  return { kind: "valid", alreadyConfirmed: false };
}

/**
 * Double opt-in (docs/decisions/087), by the button's POST (decision 100). A genuine,
 * unexpired link confirms once; pressing again says so and changes nothing. An expired
 * link still reports a registration that was confirmed in time, so an old email never
 * tells a confirmed person otherwise. Pressing it for a registration that was since
 * unsubscribed is that person asking to be back (decision 101): it confirms anew and
 * lifts the unsubscribe of this registration.
 */
export async function confirmRegistration(ctx: LinkContext, token: string): Promise<ConfirmResult> {
  const link = verifyToken(ctx.key, token, "confirm", ctx.now);
  if (!link.ok && link.reason === "invalid") return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  if (row.confirmed_at !== null && row.unsubscribed_at === null) {
    return { kind: "confirmed", firstTime: false };
  }
  if (!link.ok) return { kind: "expired" };
  const at = ctx.now.toISOString();
  const firstTime = await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("registrations")
      .set({ confirmed_at: at, unsubscribed_at: null })
      .where("id", "=", row.id)
      .where((eb) => eb.or([eb("confirmed_at", "is", null), eb("unsubscribed_at", "is not", null)]))
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

/**
 * "Join the list again" on an unsubscribe link's page (docs/decisions/101). The link
 * was mailed to the address, so pressing it proves the person reads that mailbox: the
 * address's newest registration is confirmed anew and its unsubscribe lifted. Earlier
 * registrations keep their unsubscribe as a record; mail may go to the address again
 * because a registration of it was confirmed after the unsubscribe. Safe to repeat.
 */
export async function rejoinByLink(ctx: LinkContext, token: string): Promise<RejoinResult> {
  const link = verifyToken(ctx.key, token, "unsubscribe", ctx.now);
  if (!link.ok) return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  const at = ctx.now.toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const newest = await trx
      .selectFrom("registrations")
      .select(["id", "confirmed_at", "unsubscribed_at"])
      .where(ofAddress(row.email))
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!newest || (newest.confirmed_at !== null && newest.unsubscribed_at === null)) return;
    await trx
      .updateTable("registrations")
      .set({ confirmed_at: at, unsubscribed_at: null })
      .where("id", "=", newest.id)
      .execute();
    if (ctx.forward) {
      await trx
        .insertInto("outbox")
        .values(newOutboxRow(newest.id, at, { kind: "sheet", topic: "status" }))
        .execute();
    }
  });
  return { kind: "rejoined" };
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
 * letter case, drops the mail still queued for them, and stops any being sent before it
 * returns (docs/decisions/095). Repeating it changes nothing (RFC 8058 one-click: a
 * provider may send the POST more than once).
 */
export async function unsubscribeByLink(
  ctx: LinkContext & { dialect: Dialect },
  token: string,
): Promise<UnsubscribeResult> {
  const link = verifyToken(ctx.key, token, "unsubscribe", ctx.now);
  if (!link.ok) return { kind: "invalid" };
  const row = await registrationById(ctx.db, link.registrationId);
  if (!row) return { kind: "gone" };
  const at = ctx.now.toISOString();
  let inFlight: InFlight[] = [];
  const firstTime = await ctx.db.transaction().execute(async (trx) => {
    const address = row.email.trim().toLowerCase();
    inFlight = await lockAddress(trx, ctx.dialect, address, ctx.now);
    const sameAddress = await trx
      .selectFrom("registrations")
      .select(["id", "unsubscribed_at"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", address))
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
  await stopSends(inFlight);
  return { kind: "unsubscribed", firstTime };
}
