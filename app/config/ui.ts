/** Interface constants from the specification (section 9). */
export const toastConfig = {
  position: "bottom-right",
  hotkey: ["altKey", "KeyT"],
  visibleToasts: 3,
  /** Confirmations stay 4 s; errors, which need reading, stay 5 s. */
  durations: { success: 4000, info: 4000, error: 5000 },
} as const;

export const navigationMenuDelays = { delayDuration: 200, skipDelayDuration: 300 } as const;

/** The data-fetching defaults of section 9, used by the registration form's retries. */
export const retryPolicy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 } as const;
