import type { RegistrationFields } from "./fields.ts";

function formatUuid(bytes: Uint8Array): string {
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

/**
 * The key of a submission that arrived without one (a form posted without JavaScript:
 * the prerendered page cannot carry a per-visitor key). The same details give the same
 * key, so a double submit or a browser resend stores one row (docs/decisions/036).
 * It is a UUIDv8 (RFC 9562) made from the first 16 bytes of a SHA-256 hash.
 */
export async function deriveIdempotencyKey(fields: RegistrationFields): Promise<string> {
  const data = new TextEncoder().encode(`registration-v1:${normaliseForKey(fields)}`);
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", data)).slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}
