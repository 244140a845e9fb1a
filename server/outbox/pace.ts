import { performance } from "node:perf_hooks";

/** How busy the event loop was since the last look: 0 idle, 1 never idle. */
export type UtilizationSampler = () => number;

/** The event loop's utilization between one call and the next (Node's perf_hooks). */
export function eventLoopSampler(): UtilizationSampler {
  let last = performance.eventLoopUtilization();
  return () => {
    const current = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(current, last);
    last = current;
    return utilization;
  };
}

/**
 * Background delivery gives way to visitors (docs/decisions/088): while the event loop
 * that serves requests is busier than `threshold`, the outbox waits. It never waits
 * longer than `maxWaitMs` in a row, so a site that stays busy still sends.
 */
export function createPace(options: {
  threshold: number;
  maxWaitMs: number;
  now: () => number;
  sample: UtilizationSampler;
}) {
  let waitingSince: number | null = null;
  return {
    /** True: skip this round and look again later. */
    shouldWait(): boolean {
      if (options.sample() < options.threshold) {
        waitingSince = null;
        return false;
      }
      const now = options.now();
      waitingSince ??= now;
      if (now - waitingSince >= options.maxWaitMs) {
        waitingSince = null;
        return false;
      }
      return true;
    },
  };
}
