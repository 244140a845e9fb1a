export type BackoffPolicy = {
  /** The ceiling of the first retry's delay. */
  baseMs: number;
  /** No delay ever exceeds this. */
  capMs: number;
};

/**
 * "Full jitter" exponential backoff: a uniformly random delay between zero and
 * min(cap, base * 2^(attempt - 1)). Spreading retries at random keeps several
 * app servers from hammering a recovering endpoint in step.
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
