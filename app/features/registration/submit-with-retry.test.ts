import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  HttpFailure,
  TransientFailure,
  backoffDelay,
  classifySubmitError,
  retryDelay,
  submitWithRetry,
} from "./submit-with-retry.ts";

const policy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe("backoff", () => {
  it("doubles from the base delay and stops growing at the cap", () => {
    expect([0, 1, 2, 3].map((i) => backoffDelay(i, policy))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(10, policy)).toBe(30_000);
  });

  it("waits at least as long as the server asks, and gives up when it asks for more than the cap", () => {
    expect(retryDelay(0, policy, 5000)).toBe(5000);
    expect(retryDelay(2, policy, 1000)).toBe(4000);
    expect(retryDelay(0, policy, 3_600_000)).toBeNull();
  });

  it("allows exactly `retries` retries", () => {
    expect(retryDelay(2, policy, null)).toBe(4000);
    expect(retryDelay(3, policy, null)).toBeNull();
  });
});

describe("classifySubmitError", () => {
  it("retries network failures, server errors, timeouts and rate limits", () => {
    expect(classifySubmitError(new TypeError("Failed to fetch"))).toEqual({
      retry: true,
      retryAfterMs: null,
    });
    expect(classifySubmitError(new HttpFailure(502, null))).toEqual({
      retry: true,
      retryAfterMs: null,
    });
    expect(classifySubmitError(new HttpFailure(429, 12_000))).toEqual({
      retry: true,
      retryAfterMs: 12_000,
    });
    expect(classifySubmitError(new TransientFailure("storage down", 5000))).toEqual({
      retry: true,
      retryAfterMs: 5000,
    });
  });

  it("does not retry answers that would fail the same way, nor an abort", () => {
    expect(classifySubmitError(new HttpFailure(403, null))).toEqual({ retry: false });
    expect(classifySubmitError(new HttpFailure(413, null))).toEqual({ retry: false });
    expect(classifySubmitError(new DOMException("gone", "AbortError"))).toEqual({ retry: false });
  });
});

describe("submitWithRetry", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("returns the first success without waiting", async () => {
    const attempt = vi.fn().mockResolvedValue("stored");
    await expect(submitWithRetry(attempt, { policy })).resolves.toBe("stored");
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("retries transient failures with exponential backoff, then succeeds", async () => {
    const attempt = vi
      .fn<(n: number) => Promise<string>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValue("stored");
    const result = submitWithRetry(attempt, { policy });

    await vi.advanceTimersByTimeAsync(999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(attempt).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("stored");
    expect(attempt.mock.calls.map(([n]) => n)).toEqual([1, 2, 3]);
  });

  it("makes at most four attempts (one plus three retries) and throws the last error", async () => {
    const errors = [1, 2, 3, 4].map((n) => new TypeError(`attempt ${n}`));
    const attempt = vi.fn<(n: number) => Promise<string>>((n) => Promise.reject(errors[n - 1]));
    const result = submitWithRetry(attempt, { policy });
    const settled = expect(result).rejects.toBe(errors[3]);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    await settled;
    expect(attempt).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempt).toHaveBeenCalledTimes(4);
  });

  it("honours a longer Retry-After", async () => {
    const attempt = vi
      .fn<(n: number) => Promise<string>>()
      .mockRejectedValueOnce(new HttpFailure(429, 20_000))
      .mockResolvedValue("stored");
    const result = submitWithRetry(attempt, { policy });
    await vi.advanceTimersByTimeAsync(19_999);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("stored");
  });

  it("stops at once on a failure that is not transient", async () => {
    const forbidden = new HttpFailure(403, null);
    const attempt = vi.fn().mockRejectedValue(forbidden);
    await expect(submitWithRetry(attempt, { policy })).rejects.toBe(forbidden);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("stops waiting and retrying when the signal aborts", async () => {
    const controller = new AbortController();
    const attempt = vi.fn().mockRejectedValue(new TypeError("Failed to fetch"));
    const result = submitWithRetry(attempt, { policy, signal: controller.signal });
    const settled = expect(result).rejects.toThrow("visitor left");
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error("visitor left"));
    await settled;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
