import { createHmac } from "node:crypto";

import { type Db, loadKey } from "../db/schema.ts";

/** Trimmed and lower case, as SQL's `lower(email)` compares. */
export function addressKey(email: string): string {
  return email.trim().toLowerCase();
}

/** An address's keyed hash, which erasure records and suppressions keep instead of it. */
export async function emailHasher(db: Db): Promise<(email: string) => string> {
  const key = await loadKey(db, "erasure_key");
  return (email) => createHmac("sha256", key).update(addressKey(email), "utf8").digest("hex");
}
