import { createHash, randomBytes } from "node:crypto";

import type { SessionListing, StaffMember } from "../../contract/console.ts";
import type { DatabaseHandle } from "../db/schema.ts";

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
/**
 * Adding or removing a passkey, or ending sessions, needs the session to have confirmed its
 * person with a passkey this recently (docs/decisions/178): a stolen cookie alone cannot.
 */
export const CONFIRM_MS = 5 * 60_000;

/** A session or invite token: 32 random bytes, base64url. Only its hash is stored. */
export const newToken = () => randomBytes(32).toString("base64url");

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export type SessionTimes = { createdAt: string; lastSeenAt: string };

/** Why a session no longer signs anyone in, or null while it does. */
export function sessionExpiry(session: SessionTimes, now: Date): "idle" | "absolute" | null {
  const t = now.getTime();
  if (t - Date.parse(session.createdAt) >= ABSOLUTE_MS) return "absolute";
  if (t - Date.parse(session.lastSeenAt) >= IDLE_MS) return "idle";
  return null;
}

/** Until when a session confirmed at `verifiedAt` may change passkeys and sessions; null: not now. */
export function confirmedUntil(verifiedAt: string | null, now: Date): string | null {
  if (!verifiedAt) return null;
  const until = Date.parse(verifiedAt) + CONFIRM_MS;
  return until > now.getTime() ? new Date(until).toISOString() : null;
}

/**
 * A session's public id, as its person sees it and names it to end it: the start of its
 * token's SHA-256. The cookie must carry the token itself, which the hash does not give.
 */
export const sessionId = (tokenHash: string) => tokenHash.slice(0, 16);

/** Whether to write last_seen_at on this request. */
export const needsTouch = (session: SessionTimes, now: Date) =>
  now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_MS;

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

/** A person's sessions that still sign them in, oldest first. */
async function liveSessionsOf(db: DatabaseHandle["db"], staffId: string, now: () => Date) {
  const rows = await db
    .selectFrom("staff_sessions")
    .select(["token_hash", "created_at", "last_seen_at"])
    .where("staff_id", "=", staffId)
    .orderBy("created_at")
    .execute();
  return rows.filter(
    (r) => sessionExpiry({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }, now()) === null,
  );
}

/** The staff_sessions table: only a token's SHA-256 is stored. */
export function createSessionStore({ db, now }: DatabaseHandle & { now: () => Date }) {
  const iso = (ms = 0) => new Date(now().getTime() + ms).toISOString();

  return {
    /** A new session (a new token at every sign-in); the one it replaces ends. */
    async createSession(staffId: string, replacing?: string) {
      const token = newToken();
      await db.transaction().execute(async (trx) => {
        if (replacing) {
          await trx
            .deleteFrom("staff_sessions")
            .where("token_hash", "=", hashToken(replacing))
            .execute();
        }
        await trx
          .insertInto("staff_sessions")
          .values({
            token_hash: hashToken(token),
            staff_id: staffId,
            created_at: iso(),
            last_seen_at: iso(),
          })
          .execute();
      });
      return token;
    },

    /** The staff member a session token signs in, or null (an expired one is deleted). */
    async resolveSession(token: string): Promise<StaffMember | null> {
      const tokenHash = hashToken(token);
      const row = await db
        .selectFrom("staff_sessions as ss")
        .innerJoin("staff as s", "s.id", "ss.staff_id")
        .select(["s.id", "s.email", "s.role", "ss.created_at", "ss.last_seen_at"])
        .where("ss.token_hash", "=", tokenHash)
        .where("s.removed_at", "is", null)
        .executeTakeFirst();
      if (!row) return null;
      const times = { createdAt: row.created_at, lastSeenAt: row.last_seen_at };
      if (sessionExpiry(times, now())) {
        await db.deleteFrom("staff_sessions").where("token_hash", "=", tokenHash).execute();
        return null;
      }
      if (needsTouch(times, now())) {
        await db
          .updateTable("staff_sessions")
          .set({ last_seen_at: iso() })
          .where("token_hash", "=", tokenHash)
          .execute();
      }
      return { id: row.id, email: row.email, role: row.role };
    },

    async endSession(token: string) {
      await db.deleteFrom("staff_sessions").where("token_hash", "=", hashToken(token)).execute();
    },

    /** This session has just confirmed its person with one of their passkeys. */
    async confirmSession(token: string) {
      await db
        .updateTable("staff_sessions")
        .set({ verified_at: iso() })
        .where("token_hash", "=", hashToken(token))
        .execute();
    },

    /** Until when this session's confirmation holds, or null (none, or too long ago). */
    async confirmedUntil(token: string): Promise<string | null> {
      const row = await db
        .selectFrom("staff_sessions")
        .select("verified_at")
        .where("token_hash", "=", hashToken(token))
        .executeTakeFirst();
      return confirmedUntil(row?.verified_at ?? null, now());
    },

    /** A person's live sessions, oldest first, by public id; `current` marks this request's. */
    async sessionsOf(staffId: string, current?: string): Promise<SessionListing[]> {
      const mine = current ? hashToken(current) : "";
      return (await liveSessionsOf(db, staffId, now)).map((r) => ({
        id: sessionId(r.token_hash),
        createdAt: r.created_at,
        lastSeenAt: r.last_seen_at,
        current: r.token_hash === mine,
      }));
    },

    /**
     * Ends a person's live sessions: every one, every one but `keep` (a token), or the one
     * whose public id is `id` (never `keep`). How many ended.
     */
    async endSessions(staffId: string, which: { keep?: string; id?: string } = {}) {
      const keep = which.keep ? hashToken(which.keep) : "";
      const ending = (await liveSessionsOf(db, staffId, now))
        .map((r) => r.token_hash)
        .filter(
          (hash) => hash !== keep && (which.id === undefined || sessionId(hash) === which.id),
        );
      if (ending.length === 0) return 0;
      const result = await db
        .deleteFrom("staff_sessions")
        .where("staff_id", "=", staffId)
        .where("token_hash", "in", ending)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Sessions past their absolute lifetime. */
    async purgeSessions() {
      await db.deleteFrom("staff_sessions").where("created_at", "<", iso(-ABSOLUTE_MS)).execute();
    },
  };
}
