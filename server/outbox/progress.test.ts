import { describe, expect, it } from "vitest";

import { type Progress, progressOf, type ProgressCounts, timeUntil } from "./progress.ts";

const now = new Date("2026-11-28T09:00:00.000Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1_000).toISOString();
const ahead = (seconds: number) => new Date(now.getTime() + seconds * 1_000).toISOString();
const none: ProgressCounts = {
  sent: 0,
  waiting: 0,
  failed: 0,
  sentLastMinute: 0,
  firstSentAt: null,
  lastDueAt: null,
  slowedDown: false,
};
const progress = (over: Partial<ProgressCounts>) => progressOf({ ...none, ...over }, now);

describe("an announcement's progress", () => {
  it("takes the rate from the last minute, and finishes when that rate empties the queue", () => {
    expect(
      progress({ sent: 900, waiting: 300, sentLastMinute: 120, firstSentAt: ago(600) }),
    ).toEqual({
      sent: 900,
      waiting: 300,
      failed: 0,
      perMinute: 120,
      finishAt: ahead(150),
      finishIn: "3 min",
      slowedDown: false,
    });
  });

  it.each<[string, Partial<ProgressCounts>, Partial<Progress>]>([
    [
      "counts a send that began less than a minute ago over its own time, not the whole minute",
      { sent: 50, waiting: 250, sentLastMinute: 50, firstSentAt: ago(10) },
      { perMinute: 300, finishAt: ahead(50) },
    ],
    [
      "never finishes before the pace written into the queue lets the last email go",
      { sent: 10, waiting: 50, sentLastMinute: 10, firstSentAt: ago(1), lastDueAt: ahead(3_000) },
      { perMinute: 600, finishAt: ahead(3_000) },
    ],
    [
      "before the first email, finishes at the pace",
      { waiting: 5, lastDueAt: ahead(4) },
      { finishAt: ahead(4) },
    ],
    [
      "stalled with nothing due, says it does not know",
      { sent: 3, waiting: 5, firstSentAt: ago(3_600), lastDueAt: ago(3_000) },
      { perMinute: 0, finishAt: null },
    ],
    [
      "has no finish once nothing waits, and passes on a slow-down",
      { sent: 40, failed: 2, sentLastMinute: 40, firstSentAt: ago(20), slowedDown: true },
      { finishAt: null, perMinute: 120, slowedDown: true },
    ],
    [
      "does not promise thousands a minute from the first email",
      { sent: 1, waiting: 9, sentLastMinute: 1, firstSentAt: ago(0) },
      { perMinute: 60 },
    ],
  ])("%s", (_name, over, expected) => {
    expect(progress(over)).toMatchObject(expected);
  });
});

describe("timeUntil", () => {
  it("says seconds, minutes, then hours and minutes", () => {
    expect(timeUntil(ago(5), now)).toBe("0 s");
    expect(timeUntil(ahead(40), now)).toBe("40 s");
    expect(timeUntil(ahead(170), now)).toBe("3 min");
    expect(timeUntil(ahead(2 * 3_600 + 300), now)).toBe("2 h 5 min");
  });
});
