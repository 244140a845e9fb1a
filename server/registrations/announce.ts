import { createHash } from "node:crypto";

import type { Kysely } from "kysely";

import { newOutboxRow } from "./register.ts";
import type { Database } from "../db/schema.ts";

type Db = Kysely<Database>;

/**
 * `all` confirmed, subscribed addresses (the launch notice), or only those whose newest
 * such registration asked for news before we open (`updates`).
 */
export const AUDIENCES = ["all", "updates"] as const;
export type Audience = (typeof AUDIENCES)[number];

export function isAudience(value: string): value is Audience {
  return (AUDIENCES as readonly string[]).includes(value);
}

/** A launch notice, not a newsletter archive. */
const ANNOUNCEMENT_LIMITS = { subject: 150, body: 20_000 } as const;

export type AnnouncementPlan = {
  /** Same subject and text, same id: running the command again is the same announcement. */
  announcementId: string;
  newRecipients: number;
  /** Addresses queued by an earlier run of the same announcement. */
  alreadyQueued: number;
};

export type AnnouncementResult = AnnouncementPlan & {
  firstAt: string | null;
  lastAt: string | null;
};

/** What staff wrote, checked: the problem in plain words, or null. */
export function announcementProblem(subject: string, body: string): string | null {
  if (subject.trim() === "") return "The subject is empty.";
  if (/[\r\n]/.test(subject)) return "The subject must be one line.";
  if (subject.length > ANNOUNCEMENT_LIMITS.subject)
    return `The subject is longer than ${ANNOUNCEMENT_LIMITS.subject} characters.`;
  if (body.trim() === "") return "The text is empty.";
  if (body.length > ANNOUNCEMENT_LIMITS.body)
    return `The text is longer than ${ANNOUNCEMENT_LIMITS.body} characters.`;
  return null;
}

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

/**
 * Every address with a confirmed registration not unsubscribed, once, through its newest
 * such registration, and not yet queued this announcement. An unsubscribe marks every
 * registration of the address, so one left unmarked is a newer, fresh opt-in. For
 * `updates`, that newest registration must have asked for news: the person's latest word.
 */
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

export async function planAnnouncement(
  db: Db,
  subject: string,
  body: string,
  audience: Audience = "all",
): Promise<AnnouncementPlan> {
  const id = announcementId(subject, body);
  const { fresh, alreadyQueued } = await recipients(db, id, audience);
  return { announcementId: id, newRecipients: fresh.length, alreadyQueued };
}

/**
 * Queues one email per recipient, `60 / perMinute` seconds apart, so the pace holds
 * whichever server sends them and after a restart. Chunks go in their own transactions;
 * the unique dedupe key makes a second run, or one after a crash half-way, queue only
 * what is missing. The key is the text's and the address's, not the audience's: the same
 * text sent to `updates` and later to `all` reaches each address once.
 */
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
): Promise<AnnouncementResult> {
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
