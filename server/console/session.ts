import { createHash, randomBytes } from "node:crypto";

/** Signed out after this long without a request (docs/decisions/133). */
export const IDLE_MS = 30 * 60_000;
/** Signed out this long after signing in, however active. */
export const ABSOLUTE_MS = 12 * 60 * 60_000;
/** An invite link works once, within this time. */
export const INVITE_MS = 24 * 60 * 60_000;
/** A WebAuthn challenge is good for one ceremony within this time. */
export const CHALLENGE_MS = 5 * 60_000;
/** last_seen_at is written at most this often, not on every request. */
export const TOUCH_MS = 60_000;

/** A session or invite token: 32 random bytes, base64url. Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type SessionTimes = { createdAt: string; lastSeenAt: string };

/** Why a session no longer signs anyone in, or null while it does. */
export function sessionExpiry(session: SessionTimes, now: Date): "idle" | "absolute" | null {
  const t = now.getTime();
  if (t - Date.parse(session.createdAt) >= ABSOLUTE_MS) return "absolute";
  if (t - Date.parse(session.lastSeenAt) >= IDLE_MS) return "idle";
  return null;
}

/** Whether to write last_seen_at on this request. */
export function needsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_MS;
}

const COOKIE = "__Host-console-session";
const ATTRIBUTES = "Path=/; HttpOnly; Secure; SameSite=Strict";

/**
 * The session cookie: `__Host-`, Secure, HttpOnly, SameSite=Strict. Chromium 156 and
 * Firefox ESR 153 both keep it from http://localhost (a secure context), and env.ts
 * allows no other plain-http console origin, so no origin needs a weaker one.
 */
export const sessionCookie = {
  name: COOKIE,
  set: (token: string) => `${COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${ABSOLUTE_MS / 1000}`,
  clear: () => `${COOKIE}=; ${ATTRIBUTES}; Max-Age=0`,
  /** The token in a Cookie header, if any. */
  read(header: string | undefined): string | undefined {
    for (const part of (header ?? "").split(";")) {
      const [key, ...value] = part.trim().split("=");
      if (key === COOKIE) return value.join("=") || undefined;
    }
    return undefined;
  },
};
