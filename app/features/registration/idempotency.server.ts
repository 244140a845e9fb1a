import { createHash } from "node:crypto";

import type { RegistrationFields } from "./fields.ts";
import { formatUuid, normaliseForKey } from "./idempotency.ts";

/**
 * The key of a submission that arrived without one (a form posted without JavaScript:
 * the prerendered page cannot carry a per-visitor key). The same details give the same
 * key, so a double submit or a browser resend stores one row (docs/decisions/036).
 * It is a UUIDv8 (RFC 9562) made from the first 16 bytes of a SHA-256 hash.
 *
 * Server only, and synchronous: hashing a few hundred bytes takes microseconds, while
 * WebCrypto's promise-returning digest sent each one through the thread pool and cost
 * the form posted without JavaScript about 7% of its server time (docs/decisions/092).
 */
export function deriveIdempotencyKey(fields: RegistrationFields): string {
  const bytes = createHash("sha256")
    .update(`registration-v1:${normaliseForKey(fields)}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}
