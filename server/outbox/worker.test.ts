import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";

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
  onTestFinished(async () => {
    await Promise.allSettled(visits);
    site.close();
  });
  return {
    pause,
    /** A started sampler, stopped when the test finishes (before the site closes). */
    sampler(...args: Parameters<typeof visitorDelaySampler>) {
      const sampler = visitorDelaySampler(...args);
      sampler.start();
      onTestFinished(() => sampler.stop());
      return sampler;
    },
    /** A pause of `ms`, then a visit, and 50 ms for the sampler to see it. */
    async visitAfter(ms: number) {
      await pause(ms);
      visit();
      await pause(50);
    },
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
  };
}

describe("backoffDelayMs", () => {
  const top = 0.999_999;
  it.each([
    [1, top, 1_999, "doubles the ceiling with each attempt"],
    [2, top, 3_999, "doubles the ceiling with each attempt"],
    [5, top, 31_999, "doubles the ceiling with each attempt"],
    [9, top, 511_999, "never exceeds the cap, however many attempts"],
    [10, top, 599_999, "never exceeds the cap, however many attempts"],
    [5_000, top, 599_999, "never exceeds the cap, however many attempts"],
    [3, 0, 0, "can be anywhere from zero up to the ceiling (full jitter)"],
    [3, 0.5, 4_000, "can be anywhere from zero up to the ceiling (full jitter)"],
  ])("attempt %i with draw %d waits %i ms: %s", (attempt, draw, expected) => {
    expect(backoffDelayMs(attempt, policy, () => draw)).toBe(expected);
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

  it("retries for 24 hours whatever the draws: within a minute or two at first, at most 4 hours apart later, the last at the end of the day", () => {
    for (const draw of [0, 0.5, 0.999_999]) {
      const times = schedule(draw);
      expect(times.at(-1)).toBe(24);
      expect(times.length).toBeGreaterThanOrEqual(12);
      expect(times.length).toBeLessThanOrEqual(20);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(4);
    }
    const [, first] = schedule(0.999_999);
    expect(first! * 60).toBeGreaterThanOrEqual(0.5);
    expect(first! * 60).toBeLessThan(1.01);
  });

  it("gives up at once on a row queued more than a day ago", () => {
    const [queued, now] = [new Date("2026-11-20T00:00:00Z"), new Date("2026-11-21T00:00:01Z")];
    expect(nextRetryAt(1, queued, now, DEFAULT_MAIL_OPTIONS)).toBeNull();
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
    for (const [at, busy, waits] of [
      [0, 0.95, true],
      [9_999, 0.95, true],
      [10_000, 0.95, false], // sends once, then may wait again
      [10_500, 0.95, true],
      [10_500, 0.2, false],
      [11_000, 0.95, true], // a fresh wait, counted from here
      [20_999, 0.95, true],
    ] as const) {
      [now, utilization] = [at, busy];
      expect(shouldWait(), `at ${at} ms, ${busy} busy`).toBe(waits);
    }
  });

  it("measures how late the real event loop runs for visitors: not while it waits, not without requests, but while it is blocked and requests arrive", async () => {
    const { pause, sampler, visitAfter, hold } = await visitedSite();
    const delay = sampler(300);
    await visitAfter(300);
    // A loop that only waits runs its timers on time (a busy machine makes them a little late).
    expect(delay.sample()).toBeLessThan(100);
    // The loop held in 200 ms slices, as a long synchronous task would, first with no visits.
    await hold(2, 200);
    await pause(350);
    // Late, but no one asked for anything meanwhile: only the outbox would wait.
    expect(delay.sample()).toBe(0);
    await hold(2, 200, 1);
    await visitAfter(350);
    expect(delay.sample()).toBeGreaterThan(150);
    // Until the next window is full, the last one's figure stands.
    expect(delay.sample()).toBeGreaterThan(150);
    await visitAfter(300);
    expect(delay.sample()).toBeLessThan(100);
  });

  it("counts a loop busy 80% of the window as saturated when asked to, though short slices keep it on time", async () => {
    const { sampler, visitAfter, hold } = await visitedSite();
    const plain = sampler(300);
    const host = sampler(300, 0.8);
    await visitAfter(300);
    expect(host.sample()).toBeLessThan(100);
    // 400 ms of the loop held in 20 ms slices, with requests arriving.
    await hold(20, 20, 5);
    expect(host.sample()).toBeGreaterThanOrEqual(10_000);
    expect(plain.sample()).toBeLessThan(100);
    await visitAfter(350);
    expect(host.sample()).toBeLessThan(100);
  });
});
