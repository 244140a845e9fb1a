import type { ExpressionBuilder } from "kysely";

import { lockAddress } from "./erasure.ts";
import { newOutboxRow } from "./register.ts";
import type {
  ConfirmCheck,
  ConfirmResult,
  RejoinResult,
  UnsubscribeCheck,
  UnsubscribeResult,
} from "../../contract/registrations.ts";
import type { Database, Db, Dialect } from "../db/schema.ts";
import { type InFlight, stopSends } from "../outbox/store.ts";
import { type LinkPurpose, verifyToken } from "../shared/links.ts";

type LinkContext = { db: Db; key: string; now: Date; spreadsheet?: boolean };

async function linked(ctx: LinkContext, token: string, purpose: LinkPurpose) {
  const link = verifyToken(ctx.key, token, purpose, ctx.now);
  if (!link.ok && link.reason === "invalid") return { kind: "invalid" } as const;
  const row = await ctx.db
    .selectFrom("registrations")
    .select(["id", "email", "confirmed_at", "unsubscribed_at"])
    .where("id", "=", link.registrationId)
    .executeTakeFirst();
  if (!row) return { kind: "gone" } as const;
  const confirmed = row.confirmed_at !== null && row.unsubscribed_at === null;
  return { kind: "found", row, expired: !link.ok, confirmed } as const;
}

const ofAddress = (email: string) => (eb: ExpressionBuilder<Database, "registrations">) =>
  eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase());

async function queueStatus(trx: Db, ctx: LinkContext, ids: string[], at: string) {
  if (!ctx.spreadsheet || ids.length === 0) return;
  await trx
    .insertInto("outbox")
    .values(ids.map((id) => newOutboxRow(id, at, { kind: "spreadsheet", topic: "status" })))
    .execute();
}

/** Confirms anew and lifts the unsubscribe; false when a concurrent click already did. */
async function reconfirm(trx: Db, ctx: LinkContext, id: string): Promise<boolean> {
  const at = ctx.now.toISOString();
  const updated = await trx
    .updateTable("registrations")
    .set({ confirmed_at: at, unsubscribed_at: null })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("confirmed_at", "is", null), eb("unsubscribed_at", "is not", null)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await queueStatus(trx, ctx, [id], at);
  return true;
}

/** A look never confirms: link scanners open links (decision 100). */
export async function checkConfirmLink(ctx: LinkContext, token: string): Promise<ConfirmCheck> {
  const found = await linked(ctx, token, "confirm");
  if (found.kind !== "found") return found;
  if (found.confirmed) return { kind: "valid", alreadyConfirmed: true };
  if (found.expired) return { kind: "expired" };
  return { kind: "valid", alreadyConfirmed: false };
}

/** Double opt-in by POST (decision 155); pressed after an unsubscribe, it confirms anew. */
export async function confirmRegistration(ctx: LinkContext, token: string): Promise<ConfirmResult> {
  const found = await linked(ctx, token, "confirm");
  if (found.kind !== "found") return found;
  if (found.confirmed) return { kind: "confirmed", firstTime: false };
  if (found.expired) return { kind: "expired" };
  const firstTime = await ctx.db.transaction().execute((trx) => reconfirm(trx, ctx, found.row.id));
  return { kind: "confirmed", firstTime };
}

/** The link was mailed to the address, so pressing it proves the mailbox: the newest one rejoins. */
export async function rejoinByLink(ctx: LinkContext, token: string): Promise<RejoinResult> {
  const found = await linked(ctx, token, "unsubscribe");
  if (found.kind !== "found") return found;
  await ctx.db.transaction().execute(async (trx) => {
    const newest = await trx
      .selectFrom("registrations")
      .select("id")
      .where(ofAddress(found.row.email))
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (newest) await reconfirm(trx, ctx, newest.id);
  });
  return { kind: "rejoined" };
}

export async function checkUnsubscribeLink(
  ctx: LinkContext,
  token: string,
): Promise<UnsubscribeCheck> {
  const found = await linked(ctx, token, "unsubscribe");
  if (found.kind !== "found") return found;
  return { kind: "valid", alreadyUnsubscribed: found.row.unsubscribed_at !== null };
}

/** Every registration of the address, its queued mail dropped and sends stopped; repeatable. */
export async function unsubscribeByLink(
  ctx: LinkContext & { dialect: Dialect },
  token: string,
): Promise<UnsubscribeResult> {
  const found = await linked(ctx, token, "unsubscribe");
  if (found.kind !== "found") return found;
  const { email } = found.row;
  const at = ctx.now.toISOString();
  let inFlight: InFlight[] = [];
  const firstTime = await ctx.db.transaction().execute(async (trx) => {
    inFlight = await lockAddress(trx, ctx.dialect, email.trim().toLowerCase(), ctx.now);
    const sameAddress = await trx
      .selectFrom("registrations")
      .select(["id", "unsubscribed_at"])
      .where(ofAddress(email))
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
    await queueStatus(trx, ctx, newlyUnsubscribed, at);
    return newlyUnsubscribed.length > 0;
  });
  await stopSends(inFlight);
  return { kind: "unsubscribed", firstTime };
}
