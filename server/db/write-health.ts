import { isUnavailableError } from "./unavailable.ts";

/** What /healthz reports about storage. */
export type WriteHealth = {
  writable: boolean;
  /** ISO time of the observation (a real write or a probe). */
  checkedAt: string;
};

export type WriteHealthOptions = {
  /** A tiny durable write: resolves when storage took it. */
  probe: () => Promise<unknown>;
  /** A fresher observation than this is reported without probing again. */
  maxAgeMs: number;
  now?: () => number;
};

/**
 * Whether storage can write, as last seen. Every registration write reports its
 * outcome; when the last observation is older than `maxAgeMs`, a check runs one
 * probe write (concurrent checks share it). So /healthz costs at most one tiny write
 * per `maxAgeMs`, however often it is asked, and turns unhealthy as soon as a real
 * write fails for want of storage (docs/decisions/073).
 */
export function createWriteHealth(options: WriteHealthOptions) {
  const now = options.now ?? Date.now;
  let last: { writable: boolean; at: number } | undefined;
  let probing: Promise<WriteHealth> | undefined;

  const snapshot = (): WriteHealth => ({
    writable: last?.writable ?? false,
    checkedAt: new Date(last?.at ?? now()).toISOString(),
  });

  /** A write finished: `error` undefined for success. Errors that are not about storage say nothing. */
  function observe(error?: unknown) {
    if (error === undefined) last = { writable: true, at: now() };
    else if (isUnavailableError(error)) last = { writable: false, at: now() };
  }

  async function check(): Promise<WriteHealth> {
    if (last && now() - last.at < options.maxAgeMs) return snapshot();
    probing ??= options
      .probe()
      .then(
        () => observe(),
        (error: unknown) => {
          // A probe is our own statement: any failure means storage did not take it.
          last = { writable: false, at: now() };
          return error;
        },
      )
      .then(snapshot)
      .finally(() => {
        probing = undefined;
      });
    return probing;
  }

  return { observe, check };
}

export type WriteHealthTracker = ReturnType<typeof createWriteHealth>;
