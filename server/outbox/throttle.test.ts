import { describe, expect, it } from "vitest";

import { createThrottle } from "./throttle.ts";

describe("a channel the server asked to slow down", () => {
  it("pauses, then sends on half its connections, one more back each quiet pause", () => {
    const throttle = createThrottle({ connections: 5, pauseMs: 60_000 });
    expect(throttle.allowed(0)).toBe(5);
    expect(throttle.pausedUntil(0)).toBeNull();

    expect(throttle.slowDown(1_000)).toBe("began");
    expect(throttle.allowed(1_000)).toBe(0);
    expect(throttle.pausedUntil(30_000)).toBe(61_000);
    expect(throttle.allowed(61_000)).toBe(2);
    expect(throttle.pausedUntil(61_000)).toBeNull();

    expect(throttle.sent(61_000)).toBeNull();
    expect(throttle.sent(120_999)).toBeNull();
    expect(throttle.sent(121_000)).toBeNull();
    expect(throttle.allowed(121_000)).toBe(3);
    expect(throttle.sent(181_000)).toBeNull();
    expect(throttle.allowed(181_000)).toBe(4);
    expect(throttle.sent(241_000)).toBe("recovered");
    expect(throttle.allowed(241_000)).toBe(5);
    expect(throttle.sent(400_000)).toBeNull();
  });

  it("counts the answers to sends already under way at the first one as one request", () => {
    const throttle = createThrottle({ connections: 5, pauseMs: 60_000 });
    expect(throttle.slowDown(0)).toBe("began");
    expect(throttle.slowDown(10)).toBe("ignored");
    expect(throttle.slowDown(59_999)).toBe("ignored");
    expect(throttle.allowed(60_000)).toBe(2);
    // Asked again at the slower pace: slower still, never below one connection.
    expect(throttle.slowDown(60_000)).toBe("again");
    expect(throttle.allowed(120_000)).toBe(1);
    expect(throttle.slowDown(120_000)).toBe("again");
    expect(throttle.allowed(180_000)).toBe(1);
  });

  it("gives back nothing while it keeps being asked", () => {
    const throttle = createThrottle({ connections: 4, pauseMs: 1_000 });
    throttle.slowDown(0);
    throttle.sent(1_500);
    throttle.slowDown(1_600);
    expect(throttle.sent(2_000)).toBeNull();
    expect(throttle.allowed(2_600)).toBe(1);
    expect(throttle.sent(3_600)).toBeNull();
    expect(throttle.allowed(3_600)).toBe(2);
  });
});
