import { sql } from "kysely";

import type { SourceBreakdown, WaitingListOverview } from "../../contract/console.ts";
import type { Db } from "../db/schema.ts";
import { outboxSummary } from "../outbox/summary.ts";

/*
 * The waiting list at a glance (docs/decisions/134): counts only, never a person. Each
 * figure is one aggregate query that runs the same on SQLite and PostgreSQL; mail and
 * spreadsheet health come from the outbox's own summary (server/outbox/summary.ts).
 */

const DAYS = 30;
const WEEKS = 12;
/** How many values of each source column are named; the rest are counted together. */
export const TOP_SOURCES = 5;

/** The clinic's calendar: a UK practice manager's "today" starts at midnight in London. */
const londonDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** YYYY-MM-DD plus `days` (negative: before), as calendar arithmetic. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/**
 * Registrations per London day since `from`. Counted per UTC hour in SQL (London is a
 * whole number of hours from UTC, so an hour never straddles two London days), then each
 * hour is put in its London day here: one indexed range scan, no time-zone SQL to differ
 * between the two databases.
 */
async function perDay(db: Db, from: string): Promise<Map<string, number>> {
  const hour = sql<string>`substr(received_at, 1, 13)`;
  const rows = await db
    .selectFrom("registrations")
    .select([hour.as("hour"), (eb) => eb.fn.countAll().as("n")])
    .where("received_at", ">=", from)
    .groupBy(hour)
    .execute();
  const days = new Map<string, number>();
  for (const { hour: h, n } of rows) {
    const day = londonDate.format(new Date(`${h}:00:00Z`));
    days.set(day, (days.get(day) ?? 0) + Number(n));
  }
  return days;
}

async function totals(db: Db) {
  const row = await db
    .selectFrom("registrations")
    .select((eb) => [
      eb.fn.countAll().as("registered"),
      eb.fn.count("confirmed_at").as("confirmed"),
      eb.fn.count("unsubscribed_at").as("unsubscribed"),
      eb.fn.coalesce(eb.fn.sum("wants_updates"), sql.lit(0)).as("news"),
      eb.fn.coalesce(eb.fn.sum("source_recorded"), sql.lit(0)).as("recorded"),
    ])
    .executeTakeFirstOrThrow();
  const erased = await db
    .selectFrom("erasures")
    .select((eb) => eb.fn.coalesce(eb.fn.sum("registrations"), sql.lit(0)).as("n"))
    .executeTakeFirstOrThrow();
  return {
    registered: Number(row.registered),
    confirmed: Number(row.confirmed),
    unsubscribed: Number(row.unsubscribed),
    askedForNews: Number(row.news),
    recorded: Number(row.recorded),
    erased: Number(erased.n),
  };
}

type SourceKey = keyof WaitingListOverview["sources"];

/**
 * The four source columns in one scan: every combination seen and its count (campaign
 * tags are few, so the groups are), tallied per column here. Four GROUP BYs, one per
 * column, read the table four times: 97 ms of CPU against 51 at 100,000 rows on SQLite
 * (decision 134).
 */
async function sources(
  db: Db,
  recorded: number,
  notRecorded: number,
): Promise<WaitingListOverview["sources"]> {
  const rows = await db
    .selectFrom("registrations")
    .select([
      "utm_source as source",
      "utm_medium as medium",
      "utm_campaign as campaign",
      "referrer_host as referrer",
      (eb) => eb.fn.countAll().as("n"),
    ])
    .where("source_recorded", "=", 1)
    .groupBy(["utm_source", "utm_medium", "utm_campaign", "referrer_host"])
    .execute();
  const keys: SourceKey[] = ["source", "medium", "campaign", "referrer"];
  const tallies = new Map(keys.map((key) => [key, new Map<string | null, number>()]));
  for (const row of rows) {
    for (const key of keys) {
      const tally = tallies.get(key)!;
      tally.set(row[key], (tally.get(row[key]) ?? 0) + Number(row.n));
    }
  }
  const breakdown = (key: SourceKey): SourceBreakdown => {
    const top = [...tallies.get(key)!]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value ?? "").localeCompare(b.value ?? ""))
      .slice(0, TOP_SOURCES);
    const named = top.reduce((sum, r) => sum + r.count, 0);
    return { top, others: recorded - named, notRecorded };
  };
  return {
    source: breakdown("source"),
    medium: breakdown("medium"),
    campaign: breakdown("campaign"),
    referrer: breakdown("referrer"),
  };
}

/** "SMTP 550 5.1.1" is 550; an error with no reply (refused connection, time-out) is "none". */
function replyCode(lastError: string | null): string {
  return /^SMTP (\d{3})/.exec(lastError ?? "")?.[1] ?? "none";
}

export async function waitingListOverview(db: Db, now: Date): Promise<WaitingListOverview> {
  const today = londonDate.format(now);
  const firstDay = addDays(today, -(DAYS - 1));
  const firstMonday = addDays(mondayOf(today), -7 * (WEEKS - 1));
  // A day before the earliest London midnight needed, in UTC: the hours sort themselves out.
  const from = `${addDays(firstMonday < firstDay ? firstMonday : firstDay, -1)}T00`;

  const [counts, all, outbox, suppressed] = await Promise.all([
    perDay(db, from),
    totals(db),
    outboxSummary(db),
    db
      .selectFrom("mail_suppressions")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const bySource = await sources(db, all.recorded, all.registered - all.recorded);

  const days = Array.from({ length: DAYS }, (_, i) => {
    const date = addDays(firstDay, i);
    return { date, count: counts.get(date) ?? 0 };
  });
  const weeks = Array.from({ length: WEEKS }, (_, i) => {
    const monday = addDays(firstMonday, 7 * i);
    let count = 0;
    for (let d = 0; d < 7; d++) count += counts.get(addDays(monday, d)) ?? 0;
    return { monday, count };
  });

  const failedByReply = new Map<string, number>();
  let oldestFailedAt: string | null = null;
  for (const row of outbox.dead) {
    if (row.kind === "mail") {
      const reply = replyCode(row.lastError);
      failedByReply.set(reply, (failedByReply.get(reply) ?? 0) + 1);
    } else if (oldestFailedAt === null || row.createdAt < oldestFailedAt) {
      oldestFailedAt = row.createdAt;
    }
  }
  const { mail, spreadsheet } = outbox.kinds;

  return {
    today,
    days,
    weeks,
    totals: {
      registered: all.registered,
      confirmed: all.confirmed,
      unconfirmed: all.registered - all.confirmed,
      unsubscribed: all.unsubscribed,
      erased: all.erased,
      askedForNews: all.askedForNews,
    },
    confirmationRate: all.registered === 0 ? null : all.confirmed / all.registered,
    sources: bySource,
    mail: {
      queued: mail.counts.pending,
      sent: mail.counts.delivered,
      failed: mail.counts.dead,
      failedByReply: [...failedByReply]
        .map(([reply, count]) => ({ reply, count }))
        .sort((a, b) => b.count - a.count || a.reply.localeCompare(b.reply)),
      suppressed: Number(suppressed.n),
    },
    spreadsheet: {
      waiting: spreadsheet.counts.pending,
      oldestWaitingAt: spreadsheet.oldestPendingAt,
      failed: spreadsheet.counts.dead,
      oldestFailedAt,
    },
  };
}
