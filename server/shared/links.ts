import { createHmac, timingSafeEqual } from "node:crypto";

import { linkTokenParam, registrationPaths } from "../../contract/registrations.ts";
import { type Db, loadKey } from "../db/schema.ts";

// `c.<id>.<expiry seconds>.<HMAC>` or `u.<id>.<HMAC>` (RFC 8058 links never expire): 087.
const CONFIRM_LINK_DAYS = 7;

export const confirmExpiry = (issuedAt: Date) =>
  issuedAt.getTime() + CONFIRM_LINK_DAYS * 24 * 60 * 60 * 1000;

export type LinkPurpose = "confirm" | "unsubscribe";
const prefix: Record<LinkPurpose, string> = { confirm: "c", unsubscribe: "u" };

type VerifiedLink =
  | { ok: true; registrationId: string }
  | { ok: false; reason: "invalid" }
  /** Genuine but past its time: the id lets a confirmed registration still say so. */
  | { ok: false; reason: "expired"; registrationId: string };

export const loadLinkKey = (db: Db) => loadKey(db, "link_key");

function signature(key: string, signed: string): string {
  return createHmac("sha256", key).update(signed, "utf8").digest("base64url");
}

const token = (key: string, signed: string) => `${signed}.${signature(key, signed)}`;

export function confirmToken(key: string, registrationId: string, issuedAt: Date): string {
  const expires = Math.floor(confirmExpiry(issuedAt) / 1000);
  return token(key, `${prefix.confirm}.${registrationId}.${expires}`);
}

export function unsubscribeToken(key: string, registrationId: string): string {
  return token(key, `${prefix.unsubscribe}.${registrationId}`);
}

const MAX_TOKEN_LENGTH = 200;

export function verifyToken(
  key: string,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): VerifiedLink {
  const invalid = { ok: false, reason: "invalid" } as const;
  if (token.length > MAX_TOKEN_LENGTH) return invalid;
  const parts = token.split(".");
  const expected = purpose === "confirm" ? 4 : 3;
  if (parts.length !== expected || parts[0] !== prefix[purpose]) return invalid;
  // As text: decoding base64url ignores a last character's spare bits, letting tampering by.
  const given = Buffer.from(parts.at(-1) ?? "", "utf8");
  const wanted = Buffer.from(signature(key, parts.slice(0, -1).join(".")), "utf8");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return invalid;
  const registrationId = parts[1] ?? "";
  if (purpose === "confirm") {
    const expires = Number(parts[2]);
    if (!Number.isSafeInteger(expires)) return invalid;
    if (now.getTime() >= expires * 1000) return { ok: false, reason: "expired", registrationId };
  }
  return { ok: true, registrationId };
}

export function linkUrl(siteUrl: string, purpose: LinkPurpose, token: string): string {
  const url = new URL(registrationPaths[purpose], siteUrl);
  url.searchParams.set(linkTokenParam, token);
  return url.href;
}
