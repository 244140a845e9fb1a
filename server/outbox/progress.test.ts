import { describe, expect, it } from "vitest";

import { progressOf, type ProgressCounts, timeUntil } from "./progress.ts";

const now = new Date("2026-11-28T09:00:00.000Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1_000).toISOString();
const ahead = (seconds: number) => new Date(now.getTime() + seconds * 1_000).toISOString();
const counts = (over: Partial<ProgressCounts>): ProgressCounts => ({
  sent: 0,
  waiting: 0,
  failed: 0,
  sentLastMinute: 0,
  firstSentAt: null,
  lastDueAt: null,
  slowedDown: false,
  ...over,
});

describe("an announcement's progress", () => {
  it("takes the rate from the last minute, and finishes when that rate empties the queue", () => {
    const p = progressOf(
      counts({ sent: 900, waiting: 300, sentLastMinute: 120, firstSentAt: ago(600) }),
      now,
    );
    expect(p).toEqual({
      sent: 900,
      waiting: 300,
      failed: 0,
      perMinute: 120,
      finishAt: ahead(150),
      finishIn: "3 min",
      slowedDown: false,
    });
  });

  it("counts a send that began less than a minute ago over its own time, not the whole minute", () => {
    const p = progressOf(
      counts({ sent: 50, waiting: 250, sentLastMinute: 50, firstSentAt: ago(10) }),
      now,
    );
    expect(p.perMinute).toBe(300);
    expect(p.finishAt).toBe(ahead(50));
  });

  it("never finishes before the pace written into the queue lets the last email go", () => {
    const p = progressOf(
      counts({
        sent: 10,
        waiting: 50,
        sentLastMinute: 10,
        firstSentAt: ago(1),
        lastDueAt: ahead(3_000),
      }),
      now,
    );
    expect(p.perMinute).toBe(600);
    expect(p.finishAt).toBe(ahead(3_000));
  });

  it("before the first email, finishes at the pace; stalled with nothing due, says it does not know", () => {
    expect(progressOf(counts({ waiting: 5, lastDueAt: ahead(4) }), now).finishAt).toBe(ahead(4));
    const stalled = progressOf(
      counts({ sent: 3, waiting: 5, firstSentAt: ago(3_600), lastDueAt: ago(3_000) }),
      now,
    );
    expect(stalled.perMinute).toBe(0);
    expect(stalled.finishAt).toBeNull();
  });

  it("has no finish once nothing waits, and passes on a slow-down", () => {
    const done = progressOf(
      counts({ sent: 40, failed: 2, sentLastMinute: 40, firstSentAt: ago(20), slowedDown: true }),
      now,
    );
    expect(done.finishAt).toBeNull();
    expect(done.perMinute).toBe(120);
    expect(done.slowedDown).toBe(true);
  });

  it("does not promise thousands a minute from the first email", () => {
    const p = progressOf(
      counts({ sent: 1, waiting: 9, sentLastMinute: 1, firstSentAt: ago(0) }),
      now,
    );
    expect(p.perMinute).toBe(60);
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
