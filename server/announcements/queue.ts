import { createHash } from "node:crypto";

import { hasInvisible, withoutInvisible } from "./reading.ts";
import type { Db } from "../db/schema.ts";
import { newOutboxRow } from "../registrations/register.ts";

/**
 * An announcement's words and audience, and its queueing to each recipient once: what the
 * command line plans and sends, and what an approved draft sends (decision 136).
 */

/** Confirmed, subscribed addresses; `updates`: only those whose newest one asked for news. */
export const AUDIENCES = ["all", "updates"] as const;
export type Audience = (typeof AUDIENCES)[number];

export function isAudience(value: string): value is Audience {
  return (AUDIENCES as readonly string[]).includes(value);
}

const ANNOUNCEMENT_LIMITS = { subject: 150, body: 20_000 } as const;

export function announcementProblem(subject: string, body: string): string | null {
  if (subject.trim() === "") return "The subject is empty.";
  if (/[\r\n]/.test(subject)) return "The subject must be one line.";
  if (subject.length > ANNOUNCEMENT_LIMITS.subject)
    return `The subject is longer than ${ANNOUNCEMENT_LIMITS.subject} characters.`;
  // Seen in the inbox before any preview, so refused rather than cleaned (decision 174).
  if (hasInvisible(subject))
    return "The subject has a hidden character in it, such as a zero-width space or a right-to-left mark. Type it again without one.";
  // The text's hidden characters are taken out as a draft takes it in (drafts.ts, `takeIn`).
  if (withoutInvisible(body).trim() === "") return "The text is empty.";
  if (body.length > ANNOUNCEMENT_LIMITS.body)
    return `The text is longer than ${ANNOUNCEMENT_LIMITS.body} characters.`;
  return null;
}

/** Same subject and text, same id: running the command again is the same announcement. */
export function announcementId(subject: string, body: string): string {
  return createHash("sha256")
    .update(`${subject.trim()}\n\n${body.trim()}`, "utf8")
    .digest("hex")
    .slice(0, 32);
}

/** One announcement to one address: a hash, so no address is copied. */
function dedupeKey(id: string, email: string): string {
  const address = createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");
  return `announcement:${id}:${address}`;
}

/** Each address once, through its newest confirmed one (unsubscribes mark all), not yet queued. */
async function recipients(db: Db, id: string, audience: Audience) {
  const queued = await db
    .selectFrom("outbox")
    .select("dedupe_key")
    .where("announcement_id", "=", id)
    .execute();
  const keys = new Set(queued.map((r) => r.dedupe_key));
  const rows = await db
    .selectFrom("registrations")
    .select(["id", "email", "wants_updates"])
    .where("confirmed_at", "is not", null)
    .where("unsubscribed_at", "is", null)
    .orderBy("received_at", "desc")
    .orderBy("id")
    .execute();
  const seen = new Set<string>();
  const fresh = rows.filter((r) => {
    const address = r.email.trim().toLowerCase();
    if (seen.has(address)) return false;
    seen.add(address);
    return (
      (audience === "all" || Number(r.wants_updates) === 1) && !keys.has(dedupeKey(id, r.email))
    );
  });
  return { fresh, alreadyQueued: queued.length };
}

export async function planAnnouncement(db: Db, subject: string, body: string, audience?: Audience) {
  const id = announcementId(subject, body);
  const { fresh, alreadyQueued } = await recipients(db, id, audience ?? "all");
  return { announcementId: id, newRecipients: fresh.length, alreadyQueued };
}

/** `60 / perMinute` s apart; the dedupe key (text and address) makes re-runs queue the rest. */
export async function queueAnnouncement(
  db: Db,
  options: {
    subject: string;
    body: string;
    now: Date;
    perMinute: number;
    audience?: Audience;
    chunk?: number;
  },
) {
  const subject = options.subject.trim();
  const body = options.body.trim();
  const id = announcementId(subject, body);
  const at = options.now.toISOString();
  await db
    .insertInto("announcements")
    .values({ id, subject, body, created_at: at })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const { fresh, alreadyQueued } = await recipients(db, id, options.audience ?? "all");
  const result = { announcementId: id, newRecipients: 0, alreadyQueued };
  if (fresh.length === 0) return { ...result, firstAt: null, lastAt: null };

  // After the last email this announcement has waiting: a resumed run keeps the pace.
  const gapMs = 60_000 / options.perMinute;
  const last = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.max("next_attempt_at").as("last"))
    .where("announcement_id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  const startMs = Math.max(options.now.getTime(), last?.last ? Date.parse(last.last) + gapMs : 0);
  const dueAt = (i: number) => new Date(startMs + Math.round(i * gapMs)).toISOString();

  const chunk = options.chunk ?? 500;
  for (let from = 0; from < fresh.length; from += chunk) {
    const rows = fresh.slice(from, from + chunk).map((r, i) => ({
      ...newOutboxRow(r.id, at, {
        kind: "mail",
        topic: "announcement",
        announcement_id: id,
        dedupe_key: dedupeKey(id, r.email),
      }),
      next_attempt_at: dueAt(from + i),
    }));
    const inserted = await db.transaction().execute((trx) =>
      trx
        .insertInto("outbox")
        .values(rows)
        .onConflict((oc) => oc.column("dedupe_key").where("dedupe_key", "is not", null).doNothing())
        .executeTakeFirst(),
    );
    result.newRecipients += Number(inserted.numInsertedOrUpdatedRows ?? 0);
  }
  return { ...result, firstAt: dueAt(0), lastAt: dueAt(fresh.length - 1) };
}
