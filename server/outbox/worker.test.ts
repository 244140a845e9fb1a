import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  backoffDelayMs,
  createPace,
  DEFAULT_MAIL_OPTIONS,
  nextRetryAt,
  visitorDelaySampler,
} from "./worker.ts";

const policy = { baseMs: 2_000, capMs: 600_000 };

/** A local site whose visits the sampler sees, and a loop held in slices between them. */
async function visitedSite() {
  const site = createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const { port } = site.address() as AddressInfo;
  const visits: Array<Promise<unknown>> = [];
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const visit = () => visits.push(fetch(`http://127.0.0.1:${port}/`).then((r) => r.text()));
  return {
    visit,
    pause,
    /** The loop held for `slices` slices of `sliceMs`, with a visit every `visitEvery`. */
    async hold(slices: number, sliceMs: number, visitEvery?: number) {
      for (let i = 0; i < slices; i++) {
        if (visitEvery !== undefined && i % visitEvery === 0) visit();
        const until = Date.now() + sliceMs;
        while (Date.now() < until) {
          // Hold the loop.
        }
        await pause(1);
      }
    },
    async close() {
      await Promise.allSettled(visits);
      site.close();
    },
  };
}

describe("backoffDelayMs", () => {
  it("doubles the ceiling with each attempt", () => {
    const atTop = () => 0.999_999;
    expect(backoffDelayMs(1, policy, atTop)).toBe(1_999);
    expect(backoffDelayMs(2, policy, atTop)).toBe(3_999);
    expect(backoffDelayMs(5, policy, atTop)).toBe(31_999);
  });

  it("never exceeds the cap, however many attempts", () => {
    expect(backoffDelayMs(9, policy, () => 0.999_999)).toBe(511_999);
    expect(backoffDelayMs(10, policy, () => 0.999_999)).toBe(599_999);
    expect(backoffDelayMs(5_000, policy, () => 0.999_999)).toBe(599_999);
  });

  it("can be anywhere from zero up to the ceiling (full jitter)", () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(4_000);
  });

  it("stays within [0, min(cap, base * 2^(n-1))) for any attempt and random draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, draw) => {
          const delay = backoffDelayMs(attempt, policy, () => draw);
          const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
          return Number.isInteger(delay) && delay >= 0 && delay < ceiling;
        },
      ),
    );
  });
});

describe("the mail retry schedule (docs/operations.md: about a day)", () => {
  const HOUR = 60 * 60_000;
  /** Attempt times, in hours after queueing, until the schedule gives up. */
  function schedule(draw: number): number[] {
    const queued = new Date("2026-11-25T00:00:00.000Z");
    const times = [0];
    let now = queued;
    for (let attempt = 1; attempt < 1_000; attempt++) {
      const next = nextRetryAt(attempt, queued, now, DEFAULT_MAIL_OPTIONS, () => draw);
      if (next === null) return times;
      now = next;
      times.push((now.getTime() - queued.getTime()) / HOUR);
    }
    throw new Error("never gave up");
  }

  it("retries for 24 hours whatever the draws, the last try at the end of the day", () => {
    for (const draw of [0, 0.5, 0.999_999]) {
      const times = schedule(draw);
      expect(times.at(-1)).toBe(24);
      expect(times.length).toBeGreaterThanOrEqual(12);
      expect(times.length).toBeLessThanOrEqual(20);
    }
  });

  it("tries again within a minute or two at first, and at most 4 hours apart later", () => {
    const [, first] = schedule(0.999_999);
    expect(first! * 60).toBeGreaterThanOrEqual(0.5);
    expect(first! * 60).toBeLessThan(1.01);
    for (const draw of [0, 0.999_999]) {
      const times = schedule(draw);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(4);
    }
  });

  it("gives up at once on a row queued more than a day ago", () => {
    const queued = new Date("2026-11-20T00:00:00.000Z");
    expect(
      nextRetryAt(1, queued, new Date("2026-11-21T00:00:01.000Z"), DEFAULT_MAIL_OPTIONS),
    ).toBeNull();
  });
});

describe("the outbox's pace", () => {
  it("waits while the event loop is busy, but never longer than maxWaitMs in a row", () => {
    let now = 0;
    let utilization = 0.95;
    const shouldWait = createPace({
      threshold: 0.7,
      maxWaitMs: 10_000,
      now: () => now,
      sample: () => utilization,
    });
    expect(shouldWait()).toBe(true);
    now = 9_999;
    expect(shouldWait()).toBe(true);
    now = 10_000;
    expect(shouldWait()).toBe(false); // sends once, then may wait again
    now = 10_500;
    expect(shouldWait()).toBe(true);
    utilization = 0.2;
    expect(shouldWait()).toBe(false);
    utilization = 0.95;
    now = 11_000;
    expect(shouldWait()).toBe(true); // a fresh wait, counted from here
    now = 20_999;
    expect(shouldWait()).toBe(true);
  });

  it("measures how late the real event loop runs for visitors: not while it waits, not without requests, but while it is blocked and requests arrive", async () => {
    const { visit, pause, hold, close } = await visitedSite();
    const delay = visitorDelaySampler(300);
    delay.start();
    /** The loop held in 200 ms slices, as a long synchronous task would, `visiting` or not. */
    const block = (visiting: boolean) => hold(2, 200, visiting ? 1 : undefined);
    try {
      await pause(300);
      visit();
      await pause(50);
      // A loop that only waits runs its timers on time (a busy machine makes them a little late).
      expect(delay.sample()).toBeLessThan(100);
      await block(false);
      await pause(350);
      // Late, but no one asked for anything meanwhile: only the outbox would wait.
      expect(delay.sample()).toBe(0);
      await block(true);
      await pause(350);
      visit();
      await pause(50);
      expect(delay.sample()).toBeGreaterThan(150);
      // Until the next window is full, the last one's figure stands.
      expect(delay.sample()).toBeGreaterThan(150);
      await pause(300);
      visit();
      await pause(50);
      expect(delay.sample()).toBeLessThan(100);
    } finally {
      delay.stop();
      await close();
    }
  });

  it("counts a loop busy 80% of the window as saturated when asked to, though short slices keep it on time", async () => {
    const { visit, pause, hold, close } = await visitedSite();
    /** 400 ms of the loop held in 20 ms slices, with requests arriving. */
    const busy = () => hold(20, 20, 5);
    const plain = visitorDelaySampler(300);
    const host = visitorDelaySampler(300, 0.8);
    plain.start();
    host.start();
    try {
      await pause(300);
      visit();
      await pause(50);
      expect(host.sample()).toBeLessThan(100);
      await busy();
      expect(host.sample()).toBeGreaterThanOrEqual(10_000);
      expect(plain.sample()).toBeLessThan(100);
      await pause(350);
      visit();
      await pause(50);
      expect(host.sample()).toBeLessThan(100);
    } finally {
      plain.stop();
      host.stop();
      await close();
    }
  });
});
