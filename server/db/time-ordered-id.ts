import { randomUUID } from "node:crypto";

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix time in milliseconds, then 74 random bits.
 * Rows inserted together get neighbouring keys, so a batch of registrations and their
 * outbox rows touch a few index pages at the right-hand edge instead of one random
 * page each; each page touched is written to the log and synced on commit
 * (docs/decisions/092). The time it carries is already stored beside it (received_at).
 */
export function timeOrderedId(now: number = Date.now()): string {
  const time = Math.max(0, Math.trunc(now)).toString(16).padStart(12, "0").slice(-12);
  // randomUUID's last 22 characters: 3 random digits, then the variant and 60 random bits.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
