import { createHmac, timingSafeEqual } from "node:crypto";

import type { Kysely } from "kysely";

import { linkTokenParam, registrationPaths } from "../../contract/registrations.ts";
import { type Database, loadKey } from "../db/schema.ts";

/**
 * Signed links in emails (docs/decisions/087). A token is `<purpose>.<registration
 * id>[.<expiry>].<signature>`: the purpose is `c` (confirm, with an expiry in Unix
 * seconds) or `u` (unsubscribe, which never expires: RFC 8058 links must keep
 * working), and the signature is HMAC-SHA256 over everything before it, base64url,
 * keyed with the database's link key. Nothing is stored per link: a second server,
 * or the same one after a restart, verifies it the same way.
 */
const CONFIRM_LINK_DAYS = 7;

/** When a confirm link issued at `issuedAt` stops working, in epoch milliseconds. */
export const confirmExpiry = (issuedAt: Date) =>
  issuedAt.getTime() + CONFIRM_LINK_DAYS * 24 * 60 * 60 * 1000;

export type LinkPurpose = "confirm" | "unsubscribe";
const prefix: Record<LinkPurpose, string> = { confirm: "c", unsubscribe: "u" };

type VerifiedLink =
  | { ok: true; registrationId: string }
  | { ok: false; reason: "invalid" }
  /** Genuine but past its time: the id lets a confirmed registration still say so. */
  | { ok: false; reason: "expired"; registrationId: string };

export const loadLinkKey = (db: Kysely<Database>) => loadKey(db, "link_key");

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

/** The longest token we read: anything longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

/** Checks a token's form and signature (in constant time), then its expiry. */
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
  // Compared as text, not decoded bytes: base64url ignores a final character's spare
  // bits, so decoding would let an altered token through.
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

/** Absolute links for an email, from SITE_URL as the server reads it at run time. */
export function linkUrl(siteUrl: string, purpose: LinkPurpose, token: string): string {
  const url = new URL(registrationPaths[purpose], siteUrl);
  url.searchParams.set(linkTokenParam, token);
  return url.href;
}
