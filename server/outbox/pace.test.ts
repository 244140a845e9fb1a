import { describe, expect, it } from "vitest";

import { createPace, eventLoopSampler } from "./pace.ts";

describe("the outbox's pace", () => {
  it("waits while the event loop is busy, but never longer than maxWaitMs in a row", () => {
    let now = 0;
    let utilization = 0.95;
    const pace = createPace({
      threshold: 0.7,
      maxWaitMs: 10_000,
      now: () => now,
      sample: () => utilization,
    });
    expect(pace.shouldWait()).toBe(true);
    now = 9_999;
    expect(pace.shouldWait()).toBe(true);
    now = 10_000;
    expect(pace.shouldWait()).toBe(false); // sends once, then may wait again
    now = 10_500;
    expect(pace.shouldWait()).toBe(true);
    utilization = 0.2;
    expect(pace.shouldWait()).toBe(false);
    utilization = 0.95;
    now = 11_000;
    expect(pace.shouldWait()).toBe(true); // a fresh wait, counted from here
    now = 20_999;
    expect(pace.shouldWait()).toBe(true);
  });

  it("samples the real event loop: busy while it spins, idle while it waits", async () => {
    const sample = eventLoopSampler();
    const until = Date.now() + 50;
    while (Date.now() < until) {
      // Keep the loop busy.
    }
    expect(sample()).toBeGreaterThan(0.8);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sample()).toBeLessThan(0.5);
  });
});
