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

/**
 * The session cookie for the console at `origin`: HttpOnly, SameSite=Strict, Path=/, and
 * on https `__Host-` and Secure. On http://localhost, the one plain-http origin env.ts
 * allows, it is neither: WebKit (WebKitGTK 2.50, Safari) keeps no Secure cookie there, and
 * `__Host-` demands Secure (docs/decisions/133).
 */
export function sessionCookie(origin: string) {
  const secure = new URL(origin).protocol === "https:";
  const name = secure ? "__Host-console-session" : "console-session";
  const attributes = `Path=/; HttpOnly; ${secure ? "Secure; " : ""}SameSite=Strict`;
  return {
    name,
    secure,
    set: (token: string) => `${name}=${token}; ${attributes}; Max-Age=${ABSOLUTE_MS / 1000}`,
    clear: () => `${name}=; ${attributes}; Max-Age=0`,
    /** The token in a Cookie header, if any. */
    read(header: string | undefined): string | undefined {
      for (const part of (header ?? "").split(";")) {
        const [key, ...value] = part.trim().split("=");
        if (key === name) return value.join("=") || undefined;
      }
      return undefined;
    },
  };
}
