import { CHALLENGE_MS } from "./session.ts";
import type { PasskeyListing, StaffMember } from "../../contract/console.ts";
import type { DatabaseHandle } from "../db/schema.ts";

/** A passkey as WebAuthn verification needs it. */
export type StoredPasskey = {
  id: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
};

export const passkeyRow = (staffId: string, passkey: StoredPasskey, createdAt: string) => ({
  credential_id: passkey.id,
  staff_id: staffId,
  public_key: Buffer.from(passkey.publicKey).toString("base64url"),
  counter: passkey.counter,
  transports: JSON.stringify(passkey.transports),
  created_at: createdAt,
  last_used_at: null,
});

/** The tables of the passkey ceremonies: staff_passkeys and staff_challenges. */
export function createPasskeyStore({ db, now }: DatabaseHandle & { now: () => Date }) {
  const iso = (ms = 0) => new Date(now().getTime() + ms).toISOString();
  return {
    async addPasskey(staffId: string, passkey: StoredPasskey) {
      await db
        .insertInto("staff_passkeys")
        .values(passkeyRow(staffId, passkey, iso()))
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
      const staff: StaffMember = { id: row.id, email: row.email, role: row.role };
      return { passkey, staff };
    },

    async passkeyUsed(credentialId: string, counter: number) {
      await db
        .updateTable("staff_passkeys")
        .set({ counter, last_used_at: iso() })
        .where("credential_id", "=", credentialId)
        .execute();
    },

    async passkeysOf(staffId: string): Promise<PasskeyListing[]> {
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
        transports: JSON.parse(r.transports) as string[],
      }));
    },

    /**
     * Removes one of a person's passkeys; their last one only with `allowLast`, and then
     * every session of theirs ends too (docs/decisions/178). Also when two removals race
     * and leave none: a person with no passkey keeps no session.
     */
    async removePasskey(
      staffId: string,
      credentialId: string,
      allowLast: boolean,
    ): Promise<{
      outcome: "removed" | "removed-last" | "is-last" | "missing";
      sessionsEnded: number;
    }> {
      return db.transaction().execute(async (trx) => {
        const ids = await trx
          .selectFrom("staff_passkeys")
          .select("credential_id")
          .where("staff_id", "=", staffId)
          .execute();
        if (!ids.some((r) => r.credential_id === credentialId))
          return { outcome: "missing", sessionsEnded: 0 };
        if (ids.length === 1 && !allowLast) return { outcome: "is-last", sessionsEnded: 0 };
        await trx
          .deleteFrom("staff_passkeys")
          .where("staff_id", "=", staffId)
          .where("credential_id", "=", credentialId)
          .execute();
        const { n } = await trx
          .selectFrom("staff_passkeys")
          .select((e) => e.fn.countAll().as("n"))
          .where("staff_id", "=", staffId)
          .executeTakeFirstOrThrow();
        if (Number(n) > 0) return { outcome: "removed", sessionsEnded: 0 };
        const ended = await trx
          .deleteFrom("staff_sessions")
          .where("staff_id", "=", staffId)
          .executeTakeFirst();
        return { outcome: "removed-last", sessionsEnded: Number(ended.numDeletedRows) };
      });
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

    async purgeChallenges() {
      await db.deleteFrom("staff_challenges").where("expires_at", "<", iso()).execute();
    },
  };
}
