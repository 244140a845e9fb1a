/** How often and how patiently to retry: the data-fetching defaults of section 9. */
export type RetryPolicy = {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

/** What to do after a failed attempt. */
export type FailureVerdict = { retry: false } | { retry: true; retryAfterMs: number | null };

/**
 * A failure that is worth retrying even though no error was thrown, such as the
 * action's own 503 answer (storage unavailable), which arrives as data.
 */
export class TransientFailure extends Error {
  override name = "TransientFailure";
  readonly retryAfterMs: number | null;
  constructor(message: string, retryAfterMs: number | null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** Exponential backoff: base, 2 x base, 4 x base ..., never more than the cap. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

/**
 * The wait before retry number `retryIndex` (0-based), or null to stop. A server's
 * Retry-After is honoured when it is longer than the backoff; one beyond the cap
 * (a daily rate limit, say) means retrying now is pointless, so we stop.
 */
export function retryDelay(
  retryIndex: number,
  policy: RetryPolicy,
  retryAfterMs: number | null,
): number | null {
  if (retryIndex >= policy.retries) return null;
  if (retryAfterMs !== null && retryAfterMs > policy.maxDelayMs) return null;
  return Math.max(backoffDelay(retryIndex, policy), retryAfterMs ?? 0);
}

/** An answer that is not the registration result: a guard's refusal, a proxy's error page. */
export class HttpFailure extends Error {
  override name = "HttpFailure";
  readonly status: number;
  readonly retryAfterMs: number | null;
  constructor(status: number, retryAfterMs: number | null) {
    super(`The server answered ${status}.`);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Sorts the errors a submission can end in. Network failures (fetch throws a TypeError),
 * 5xx, 408 and 429 are transient; other 4xx answers (403 foreign origin, 413 too large)
 * will fail the same way again; an abort means the visitor moved on.
 */
export function classifySubmitError(error: unknown): FailureVerdict {
  if (error instanceof TransientFailure) return { retry: true, retryAfterMs: error.retryAfterMs };
  if (error instanceof Error && error.name === "AbortError") return { retry: false };
  if (error instanceof HttpFailure) {
    const transient = error.status === 408 || error.status === 429 || error.status >= 500;
    return transient ? { retry: true, retryAfterMs: error.retryAfterMs } : { retry: false };
  }
  // A TypeError from fetch, or a body that could not be read.
  return { retry: true, retryAfterMs: null };
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export type SubmitWithRetryOptions = {
  policy: RetryPolicy;
  classify?: (error: unknown) => FailureVerdict;
  /** Aborting stops further attempts (the visitor left or submitted again). */
  signal?: AbortSignal;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/**
 * Runs `attempt` until it succeeds, a failure is not transient, or the retries are
 * spent; then the last error is thrown. The caller makes every attempt carry the
 * same idempotency key, so a retry of a request that did reach the database is
 * answered as a duplicate instead of storing a second row.
 */
export async function submitWithRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: SubmitWithRetryOptions,
): Promise<T> {
  const { policy, classify = classifySubmitError, signal, wait = sleep } = options;
  for (let retryIndex = 0; ; retryIndex++) {
    try {
      return await attempt(retryIndex + 1);
    } catch (error) {
      if (signal?.aborted) throw error;
      const verdict = classify(error);
      const delay = verdict.retry ? retryDelay(retryIndex, policy, verdict.retryAfterMs) : null;
      if (delay === null) throw error;
      await wait(delay, signal);
    }
  }
}
