/** An announcement's emails as the outbox holds them, read at `now` (summary.ts). */
export type ProgressCounts = {
  sent: number;
  waiting: number;
  failed: number;
  /** Sent in the minute before now. */
  sentLastMinute: number;
  /** When its first email was sent; null before any was. */
  firstSentAt: string | null;
  /** When the last email not yet tried falls due: its pace (MAIL_PER_MINUTE) ends there. */
  lastDueAt: string | null;
  /** The mail server answered 421 or 451 to emails still waiting (decision 184). */
  slowedDown: boolean;
};

export type Progress = Pick<ProgressCounts, "sent" | "waiting" | "failed" | "slowedDown"> & {
  /** Emails a minute over the last minute (or since the first was sent, if later). */
  perMinute: number;
  /** When the last should be sent at that rate, and never before its pace allows; null when done or stalled. */
  finishAt: string | null;
  /** How long until then, for people: "3 min". */
  finishIn: string | null;
};

const MINUTE = 60_000;

export function progressOf(counts: ProgressCounts, now: Date): Progress {
  const at = now.getTime();
  const windowStart = Math.max(at - MINUTE, Date.parse(counts.firstSentAt ?? "") || at);
  // A second at least, so the first email or two do not promise thousands a minute.
  const perMinute = (counts.sentLastMinute * MINUTE) / Math.max(1_000, at - windowStart);
  const paced = counts.lastDueAt === null ? null : Date.parse(counts.lastDueAt);
  let finish: number | null = null;
  if (counts.waiting > 0) {
    const byRate = perMinute > 0 ? at + (counts.waiting / perMinute) * MINUTE : null;
    const byPace = paced !== null && paced > at ? paced : null;
    finish = byRate === null ? byPace : Math.max(byRate, byPace ?? 0);
  }
  const finishAt =
    finish === null ? null : new Date(Math.ceil(finish / 1_000) * 1_000).toISOString();
  return {
    sent: counts.sent,
    waiting: counts.waiting,
    failed: counts.failed,
    perMinute: Math.round(perMinute),
    finishAt,
    finishIn: finishAt === null ? null : timeUntil(finishAt, now),
    slowedDown: counts.slowedDown,
  };
}

/** "40 s", "3 min", "2 h 5 min": how long until `to`, for people. */
export function timeUntil(to: string, now: Date): string {
  const seconds = Math.max(0, Math.round((Date.parse(to) - now.getTime()) / 1_000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
