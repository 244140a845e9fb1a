export type BackoffPolicy = {
  /** The ceiling of the first retry's delay. */
  baseMs: number;
  /** No delay ever exceeds this. */
  capMs: number;
  /**
   * The share of the ceiling every delay waits at least (0: "full jitter", anywhere from
   * zero; 0.5: "equal jitter", from half the ceiling). Defaults to 0.
   */
  floor?: number;
};

/**
 * Exponential backoff with jitter: a uniformly random delay between floor * ceiling and
 * the ceiling, min(cap, base * 2^(attempt - 1)). Spreading retries at random keeps several
 * app servers from hammering a recovering endpoint in step.
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const floor = policy.floor ?? 0;
  return Math.floor(ceiling * (floor + (1 - floor) * random()));
}

export type RetryPolicy = {
  backoff: BackoffPolicy;
  /** After this many failed attempts the row is given up ('dead'). */
  maxAttempts: number;
  /**
   * And retries stop this long after the row was queued: the last one is planned at that
   * moment at the latest, and a failure after it gives up.
   */
  retryForMs: number;
};

/**
 * What to do after a temporary failure: when to try again, or null to give up (the row
 * goes to 'dead' until someone runs `outbox --retry`).
 */
export function nextRetryAt(
  attempt: number,
  queuedAt: Date,
  now: Date,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Date | null {
  const end = queuedAt.getTime() + policy.retryForMs;
  if (attempt >= policy.maxAttempts || now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + backoffDelayMs(attempt, policy.backoff, random)));
}
