import { randomUUID } from "node:crypto";

import {
  CHALLENGE_MS,
  hashToken,
  INVITE_MS,
  needsTouch,
  newToken,
  sessionExpiry,
} from "./session.ts";
import type {
  AuditEntry,
  PasskeyListing,
  StaffListing,
  StaffMember,
  StaffRole,
} from "../../contract/console.ts";
import type { DatabaseHandle } from "../db/schema.ts";
import { guardAll, timeOrderedId } from "../db/writes.ts";

/** A passkey as WebAuthn verification needs it. */
export type StoredPasskey = {
  id: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
};

export type NewPasskey = StoredPasskey;

export type AuditRecord = {
  staffId: string | null;
  action: string;
  registrationId?: string | null;
  detail?: AuditEntry["detail"];
};

export const AUDIT_PAGE_SIZE = 50;

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * The staff console's storage (docs/decisions/133): staff, passkeys, invites, sessions,
 * challenges and the audit trail. Tokens are stored only as their SHA-256. Every call is
 * wrapped in guardAvailability, like the registration admin.
 */
export function createStaffStore({ db, now }: DatabaseHandle & { now: () => Date }) {
  const iso = (ms = 0) => new Date(now().getTime() + ms).toISOString();

  const member = (row: { id: string; email: string; role: StaffRole }): StaffMember => ({
    id: row.id,
    email: row.email,
    role: row.role,
  });

  const activeByEmail = (email: string) =>
    db
      .selectFrom("staff")
      .select(["id", "email", "role"])
      .where("email", "=", normalise(email))
      .where("removed_at", "is", null)
      .executeTakeFirst();

  return guardAll({
    async createInvite(email: string, role: StaffRole) {
      const token = newToken();
      const expiresAt = iso(INVITE_MS);
      await db
        .insertInto("staff_invites")
        .values({
          token_hash: hashToken(token),
          email: normalise(email),
          role,
          created_at: iso(),
          expires_at: expiresAt,
          used_at: null,
        })
        .execute();
      return { token, expiresAt };
    },

    /** The invite behind a link, while it is unused and unexpired. */
    async validInvite(token: string) {
      const row = await db
        .selectFrom("staff_invites")
        .select(["email", "role", "expires_at"])
        .where("token_hash", "=", hashToken(token))
        .where("used_at", "is", null)
        .where("expires_at", ">", iso())
        .executeTakeFirst();
      return row ? { email: row.email, role: row.role, expiresAt: row.expires_at } : null;
    },

    /**
     * Uses the invite once and enrols its person with their first passkey: a new staff
     * member, or a returning one (re-invited after losing every passkey, or removed
     * before), who gets the invite's role. Null when the invite was used meanwhile.
     */
    async enrol(token: string, passkey: NewPasskey): Promise<StaffMember | null> {
      return db.transaction().execute(async (trx) => {
        const invite = await trx
          .updateTable("staff_invites")
          .set({ used_at: iso() })
          .where("token_hash", "=", hashToken(token))
          .where("used_at", "is", null)
          .where("expires_at", ">", iso())
          .returning(["email", "role"])
          .executeTakeFirst();
        if (!invite) return null;
        const existing = await trx
          .selectFrom("staff")
          .select("id")
          .where("email", "=", invite.email)
          .executeTakeFirst();
        const id = existing?.id ?? randomUUID();
        if (existing) {
          await trx
            .updateTable("staff")
            .set({ role: invite.role, removed_at: null })
            .where("id", "=", id)
            .execute();
        } else {
          await trx
            .insertInto("staff")
            .values({
              id,
              email: invite.email,
              role: invite.role,
              created_at: iso(),
              removed_at: null,
            })
            .execute();
        }
        await trx
          .insertInto("staff_passkeys")
          .values({
            credential_id: passkey.id,
            staff_id: id,
            public_key: Buffer.from(passkey.publicKey).toString("base64url"),
            counter: passkey.counter,
            transports: JSON.stringify(passkey.transports),
            created_at: iso(),
            last_used_at: null,
          })
          .execute();
        return { id, email: invite.email, role: invite.role };
      });
    },

    async addPasskey(staffId: string, passkey: NewPasskey) {
      await db
        .insertInto("staff_passkeys")
        .values({
          credential_id: passkey.id,
          staff_id: staffId,
          public_key: Buffer.from(passkey.publicKey).toString("base64url"),
          counter: passkey.counter,
          transports: JSON.stringify(passkey.transports),
          created_at: iso(),
          last_used_at: null,
        })
        .execute();
    },

    /** A passkey and its active owner, by credential id. */
    async passkey(credentialId: string) {
      const row = await db
        .selectFrom("staff_passkeys as p")
        .innerJoin("staff as s", "s.id", "p.staff_id")
        .select(["p.public_key", "p.counter", "p.transports", "s.id", "s.email", "s.role"])
        .where("p.credential_id", "=", credentialId)
        .where("s.removed_at", "is", null)
        .executeTakeFirst();
      if (!row) return null;
      const passkey: StoredPasskey = {
        id: credentialId,
        publicKey: new Uint8Array(Buffer.from(row.public_key, "base64url")),
        counter: Number(row.counter),
        transports: JSON.parse(row.transports) as string[],
      };
      return { passkey, staff: member(row) };
    },

    async passkeyUsed(credentialId: string, counter: number) {
      await db
        .updateTable("staff_passkeys")
        .set({ counter, last_used_at: iso() })
        .where("credential_id", "=", credentialId)
        .execute();
    },

    async passkeysOf(staffId: string): Promise<(PasskeyListing & { id: string })[]> {
      const rows = await db
        .selectFrom("staff_passkeys")
        .select(["credential_id", "created_at", "last_used_at", "transports"])
        .where("staff_id", "=", staffId)
        .orderBy("created_at")
        .execute();
      return rows.map((r) => ({
        id: r.credential_id,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
      }));
    },

    async list(): Promise<StaffListing[]> {
      const rows = await db
        .selectFrom("staff as s")
        .select([
          "s.id",
          "s.email",
          "s.role",
          "s.created_at",
          (eb) =>
            eb
              .selectFrom("staff_passkeys as p")
              .select((e) => e.fn.countAll<number>().as("n"))
              .whereRef("p.staff_id", "=", "s.id")
              .as("passkeys"),
          (eb) =>
            eb
              .selectFrom("staff_passkeys as p")
              .select((e) => e.fn.max("p.last_used_at").as("last"))
              .whereRef("p.staff_id", "=", "s.id")
              .as("last_used"),
        ])
        .where("s.removed_at", "is", null)
        .orderBy("s.email")
        .execute();
      return rows.map((r) => ({
        ...member(r),
        createdAt: r.created_at,
        passkeys: Number(r.passkeys ?? 0),
        lastSignInAt: r.last_used ?? null,
      }));
    },

    /** Pending invites, newest first: for `staff list`. */
    async pendingInvites() {
      return db
        .selectFrom("staff_invites")
        .select(["email", "role", "expires_at"])
        .where("used_at", "is", null)
        .where("expires_at", ">", iso())
        .orderBy("created_at", "desc")
        .execute();
    },

    activeByEmail: (email: string) => activeByEmail(email),

    async activeById(id: string) {
      return db
        .selectFrom("staff")
        .select(["id", "email", "role"])
        .where("id", "=", id)
        .where("removed_at", "is", null)
        .executeTakeFirst();
    },

    async managers(): Promise<number> {
      const row = await db
        .selectFrom("staff")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("role", "=", "manager")
        .where("removed_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async setRole(id: string, role: StaffRole) {
      await db.updateTable("staff").set({ role }).where("id", "=", id).execute();
    },

    /**
     * Removes a person at once: their sessions (the next request fails), their passkeys
     * (a lost device signs in no more) and any invite still pending for their address.
     */
    async remove(id: string) {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("staff")
          .set({ removed_at: iso() })
          .where("id", "=", id)
          .returning("email")
          .executeTakeFirst();
        await trx.deleteFrom("staff_sessions").where("staff_id", "=", id).execute();
        await trx.deleteFrom("staff_passkeys").where("staff_id", "=", id).execute();
        if (row) {
          await trx
            .deleteFrom("staff_invites")
            .where("email", "=", row.email)
            .where("used_at", "is", null)
            .execute();
        }
      });
    },

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
      return member(row);
    },

    async endSession(token: string) {
      await db.deleteFrom("staff_sessions").where("token_hash", "=", hashToken(token)).execute();
    },

    async issueChallenge(challenge: string, purpose: string, subject: string) {
      await db
        .insertInto("staff_challenges")
        .values({ challenge, purpose, subject, expires_at: iso(CHALLENGE_MS) })
        .execute();
    },

    /** True once for a challenge we issued for this purpose and subject, within its time. */
    async consumeChallenge(challenge: string, purpose: string, subject: string) {
      const result = await db
        .deleteFrom("staff_challenges")
        .where("challenge", "=", challenge)
        .where("purpose", "=", purpose)
        .where("subject", "=", subject)
        .where("expires_at", ">", iso())
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async audit(record: AuditRecord) {
      await db
        .insertInto("audit_trail")
        .values({
          id: timeOrderedId(now().getTime()),
          at: iso(),
          staff_id: record.staffId,
          action: record.action,
          registration_id: record.registrationId ?? null,
          detail: JSON.stringify(record.detail ?? {}),
        })
        .execute();
    },

    /** How many times a staff member did `action` since `msAgo` ago (a limit's count). */
    async countActions(staffId: string, action: string, msAgo: number): Promise<number> {
      const { n } = await db
        .selectFrom("audit_trail")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("staff_id", "=", staffId)
        .where("action", "=", action)
        .where("at", ">", iso(-msAgo))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** One page of the audit trail, newest first (page 1 is the newest). */
    async auditPage(page: number): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
      const rows = await db
        .selectFrom("audit_trail as a")
        .leftJoin("staff as s", "s.id", "a.staff_id")
        .select(["a.at", "a.action", "a.registration_id", "a.detail", "s.email"])
        .orderBy("a.id", "desc")
        .limit(AUDIT_PAGE_SIZE + 1)
        .offset((page - 1) * AUDIT_PAGE_SIZE)
        .execute();
      return {
        hasMore: rows.length > AUDIT_PAGE_SIZE,
        entries: rows.slice(0, AUDIT_PAGE_SIZE).map((r) => ({
          at: r.at,
          staff: r.email ?? null,
          action: r.action,
          registrationId: r.registration_id,
          detail: JSON.parse(r.detail) as AuditEntry["detail"],
        })),
      };
    },

    /**
     * The daily purge's part: audit entries older than the retention period plus 12
     * months, and sessions, invites and challenges that can no longer be used.
     */
    async purge(retentionMonths: number) {
      const cutoff = now();
      cutoff.setUTCMonth(cutoff.getUTCMonth() - retentionMonths - 12);
      const audit = await db
        .deleteFrom("audit_trail")
        .where("at", "<", cutoff.toISOString())
        .executeTakeFirst();
      await db
        .deleteFrom("staff_sessions")
        .where("created_at", "<", iso(-12 * 60 * 60_000))
        .execute();
      await db.deleteFrom("staff_invites").where("expires_at", "<", iso()).execute();
      await db.deleteFrom("staff_challenges").where("expires_at", "<", iso()).execute();
      return { cutoff: cutoff.toISOString(), audit: Number(audit.numDeletedRows) };
    },
  });
}

export type StaffStore = ReturnType<typeof createStaffStore>;
