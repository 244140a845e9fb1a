/**
 * How many sends a channel may have under way, after the server on the other end asked it
 * to slow down (SMTP 421 or 451): none for `pauseMs`, then half as many as before, one more
 * back for each further `pauseMs` without another such answer (decision 184).
 */
export type Throttle = {
  /** Sends allowed under way now: 0 while paused. */
  allowed(now: number): number;
  /** When a pause ends, or null when not paused. */
  pausedUntil(now: number): number | null;
  /** The server asked to slow down; "began" the first time since it last had the full pace. */
  slowDown(now: number): "began" | "again" | "ignored";
  /** A send went through; "recovered" when that gave back the last connection. */
  sent(now: number): "recovered" | null;
};

export function createThrottle(options: { connections: number; pauseMs: number }): Throttle {
  const full = options.connections;
  let limit = full;
  let pausedUntil = 0;
  let changedAt = 0;
  return {
    allowed: (now) => (now < pausedUntil ? 0 : limit),
    pausedUntil: (now) => (now < pausedUntil ? pausedUntil : null),
    slowDown(now) {
      // The other sends under way when the first answer came were started at the old pace.
      if (now < pausedUntil) return "ignored";
      const began = limit === full;
      limit = Math.max(1, Math.floor(limit / 2));
      pausedUntil = now + options.pauseMs;
      changedAt = pausedUntil;
      return began ? "began" : "again";
    },
    sent(now) {
      if (limit === full || now - changedAt < options.pauseMs) return null;
      limit += 1;
      changedAt = now;
      return limit === full ? "recovered" : null;
    },
  };
}
