/** Interface constants from the specification (section 9). */
export const toastConfig = {
  position: "bottom-right",
  hotkey: ["altKey", "KeyT"],
  visibleToasts: 3,
  durations: { success: 4000, info: 4000, error: 5000 },
} as const;

export const navigationMenuDelays = { delayDuration: 200, skipDelayDuration: 300 } as const;

export const retryPolicy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 } as const;
