import { type Kysely, sql } from "kysely";

import type { SourceBreakdown, WaitingListOverview } from "../../contract/console.ts";
import type { Database } from "../db/schema.ts";
import { outboxSummary } from "../outbox/summary.ts";

/*
 * The waiting list at a glance (docs/decisions/134): counts only, never a person. Each
 * figure is one aggregate query that runs the same on SQLite and PostgreSQL; mail and
 * spreadsheet health come from the outbox's own summary (server/outbox/summary.ts).
 */

type Db = Kysely<Database>;

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

/** The Monday of the week a date falls in. */
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

const sourceColumns = {
  source: "utm_source",
  medium: "utm_medium",
  campaign: "utm_campaign",
  referrer: "referrer_host",
} as const;

async function breakdown(
  db: Db,
  column: (typeof sourceColumns)[keyof typeof sourceColumns],
  recorded: number,
  notRecorded: number,
): Promise<SourceBreakdown> {
  const rows = await db
    .selectFrom("registrations")
    .select([`${column} as value`, (eb) => eb.fn.countAll().as("n")])
    .where("source_recorded", "=", 1)
    .groupBy(column)
    .orderBy("n", "desc")
    .orderBy(column)
    .limit(TOP_SOURCES)
    .execute();
  const top = rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  const named = top.reduce((sum, r) => sum + r.count, 0);
  return { top, others: recorded - named, notRecorded };
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
  const notRecorded = all.registered - all.recorded;
  const [source, medium, campaign, referrer] = await Promise.all(
    Object.values(sourceColumns).map((column) =>
      breakdown(db, column, all.recorded, notRecorded),
    ) as [Promise<SourceBreakdown>, ...Promise<SourceBreakdown>[]],
  );

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
    sources: { source: source!, medium: medium!, campaign: campaign!, referrer: referrer! },
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
