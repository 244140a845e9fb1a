import type { RegistrationFields } from "./fields.ts";

export function formatUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A fresh random key for one filled-in form. crypto.randomUUID exists only in secure
 * contexts (https and localhost), so plain-http previews fall back to a v4 UUID built
 * from getRandomValues, which every browser has.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** The fields in a canonical form: whitespace runs collapsed and the email lower-cased. */
export function normaliseForKey(fields: RegistrationFields): string {
  const squash = (value: string | null) => (value === null ? null : value.replace(/\s+/g, " "));
  return JSON.stringify([
    squash(fields.name),
    fields.email.toLowerCase(),
    squash(fields.phone),
    squash(fields.message),
  ]);
}
