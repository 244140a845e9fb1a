import { randomUUID } from "node:crypto";

import type { Selectable, Transaction } from "kysely";

import { approversFor, type Lineage } from "./consent.ts";
import { passkeyRow, type StoredPasskey } from "./passkey-store.ts";
import { hashToken, INVITE_MS, newToken } from "./session.ts";
import type { StaffChange, StaffListing, StaffMember, StaffRole } from "../../contract/console.ts";
import type { Database as Schema, DatabaseHandle } from "../db/schema.ts";

/** An invite's address belongs to an active member: an invitation never touches them. */
export class ActiveMemberError extends Error {
  constructor() {
    super("That address belongs to an active staff member.");
  }
}

export type InviteOptions = {
  /** Who made it; null or absent: the command line. */
  invitedBy?: string | null;
  /** Who alone grants the manager role it carries (decision 175). */
  managerBy?: string | null;
  /** It replaces the passkeys of someone reset. */
  reset?: boolean;
};

/** A staff change waiting for a second manager's agreement (decision 175). */
export type StoredRequest = {
  id: string;
  change: StaffChange;
  staffId: string | null;
  email: string;
  role: StaffRole | null;
  requestedBy: string;
  requestedAt: string;
};

const normalise = (email: string) => email.trim().toLowerCase();

type Handle = DatabaseHandle & { now: () => Date };
const clock =
  (now: () => Date) =>
  (ms = 0) =>
    new Date(now().getTime() + ms).toISOString();

function inviteRow(
  iso: (ms?: number) => string,
  token: string,
  email: string,
  role: StaffRole,
  options: InviteOptions,
) {
  return {
    token_hash: hashToken(token),
    email: normalise(email),
    role,
    created_at: iso(),
    expires_at: iso(INVITE_MS),
    used_at: null,
    manager_by: role === "manager" ? (options.managerBy ?? null) : null,
    invited_by: options.invitedBy ?? null,
    reset: options.reset ? 1 : 0,
  };
}

/** Ends everything a person can sign in with, and marks them removed. */
async function deactivate(trx: Transaction<Schema>, removedAt: string, id: string) {
  const row = await trx
    .updateTable("staff")
    .set({ removed_at: removedAt })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .returning(["email", "role"])
    .executeTakeFirst();
  await trx.deleteFrom("staff_sessions").where("staff_id", "=", id).execute();
  await trx.deleteFrom("staff_passkeys").where("staff_id", "=", id).execute();
  // Nothing waits on a person who is gone: neither a change to them nor one they asked for.
  await trx
    .deleteFrom("staff_requests")
    .where((eb) => eb.or([eb("staff_id", "=", id), eb("requested_by", "=", id)]))
    .execute();
  if (row) {
    await trx
      .deleteFrom("staff_invites")
      .where("email", "=", row.email)
      .where("used_at", "is", null)
      .execute();
  }
  return row;
}

/**
 * Uses the invite once and enrols its person with their first passkey: a new staff
 * member, or one removed (or reset) before, who starts afresh with the invite's role.
 * Never an active member (decision 175): ActiveMemberError, and nothing changes.
 * Null when the invite was used meanwhile or has expired.
 */
async function enrol(
  trx: Transaction<Schema>,
  iso: () => string,
  token: string,
  passkey: StoredPasskey,
): Promise<StaffMember | null> {
  const invite = await trx
    .updateTable("staff_invites")
    .set({ used_at: iso() })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", iso())
    .returning(["email", "role", "manager_by"])
    .executeTakeFirst();
  if (!invite) return null;
  const existing = await trx
    .selectFrom("staff")
    .select(["id", "removed_at"])
    .where("email", "=", invite.email)
    .executeTakeFirst();
  if (existing && existing.removed_at === null) throw new ActiveMemberError();
  const id = existing?.id ?? randomUUID();
  const managerBy = invite.role === "manager" ? invite.manager_by : null;
  if (existing) {
    // A fresh start: nothing of a former passkey or session may come back with them.
    await trx.deleteFrom("staff_passkeys").where("staff_id", "=", id).execute();
    await trx.deleteFrom("staff_sessions").where("staff_id", "=", id).execute();
    await trx
      .updateTable("staff")
      .set({
        role: invite.role,
        removed_at: null,
        // A viewer keeps the record of who last made them a manager alone.
        ...(invite.role === "manager" ? { manager_by: managerBy } : {}),
      })
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
        manager_by: managerBy,
      })
      .execute();
  }
  await trx
    .insertInto("staff_passkeys")
    .values(passkeyRow(id, passkey, iso()))
    .execute();
  return { id, email: invite.email, role: invite.role };
}

/** Invitations, and the enrolment that uses one (docs/decisions/133, 175). */
function createInvites({ db, now }: Handle) {
  const iso = clock(now);
  return {
    async createInvite(email: string, role: StaffRole, options: InviteOptions = {}) {
      const token = newToken();
      const row = inviteRow(iso, token, email, role, options);
      await db.insertInto("staff_invites").values(row).execute();
      return { token, expiresAt: row.expires_at };
    },

    /** Withdraws an invite nobody can use (its email could not be sent). */
    async withdrawInvite(token: string) {
      await db.deleteFrom("staff_invites").where("token_hash", "=", hashToken(token)).execute();
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

    enrol: (token: string, passkey: StoredPasskey): Promise<StaffMember | null> =>
      db.transaction().execute((trx) => enrol(trx, iso, token, passkey)),

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

    /** Pending invites, newest first, with who made them: for the staff page. */
    async invitations() {
      const rows = await db
        .selectFrom("staff_invites as i")
        .leftJoin("staff as s", "s.id", "i.invited_by")
        .select(["i.email", "i.role", "i.created_at", "i.expires_at", "i.reset", "s.email as by"])
        .where("i.used_at", "is", null)
        .where("i.expires_at", ">", iso())
        .orderBy("i.created_at", "desc")
        .execute();
      return rows.map((r) => ({
        email: r.email,
        role: r.role,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        invitedBy: r.by ?? null,
        reset: Number(r.reset) === 1,
      }));
    },

    async purgeInvites() {
      await db.deleteFrom("staff_invites").where("expires_at", "<", iso()).execute();
    },
  };
}

/** Who is on the staff, and their roles. */
function createMembers({ db }: Handle) {
  const lineage = async (): Promise<Lineage[]> =>
    (await db.selectFrom("staff").select(["id", "role", "removed_at", "manager_by"]).execute()).map(
      (r) => ({
        id: r.id,
        role: r.role,
        active: r.removed_at === null,
        managerBy: r.manager_by,
      }),
    );

  const active = (column: "id" | "email", value: string) =>
    db
      .selectFrom("staff")
      .select(["id", "email", "role"])
      .where(column, "=", value)
      .where("removed_at", "is", null)
      .executeTakeFirst();

  return {
    async list(): Promise<StaffListing[]> {
      const rows = await db
        .selectFrom("staff as s")
        .leftJoin("staff as g", "g.id", "s.manager_by")
        .select([
          "s.id",
          "s.email",
          "s.role",
          "s.created_at",
          "g.email as manager_by",
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
        id: r.id,
        email: r.email,
        role: r.role,
        createdAt: r.created_at,
        passkeys: Number(r.passkeys ?? 0),
        lastSignInAt: r.last_used ?? null,
        managerBy: r.role === "manager" ? (r.manager_by ?? null) : null,
      }));
    },

    activeByEmail: (email: string) => active("email", normalise(email)),
    activeById: (id: string) => active("id", id),

    async managers(): Promise<number> {
      const row = await db
        .selectFrom("staff")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("role", "=", "manager")
        .where("removed_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Every staff row's place in the lone grants (server/console/consent.ts). */
    lineage,

    /**
     * How many active managers, other than the author, may approve the author's
     * announcement: those whose manager role the author did not grant alone (decision 175).
     * Null: the command line wrote it, and every manager may.
     */
    async approversFor(authorId: string | null): Promise<string[]> {
      return approversFor(await lineage(), authorId);
    },

    /**
     * Sets an active person's role, only if it is still `from`. `managerBy`: who alone
     * grants a manager role (null: the CLI or with agreement). False when it had changed.
     */
    async setRole(id: string, from: StaffRole, role: StaffRole, managerBy: string | null = null) {
      const result = await db
        .updateTable("staff")
        .set({ role, ...(role === "manager" ? { manager_by: managerBy } : {}) })
        .where("id", "=", id)
        .where("role", "=", from)
        .where("removed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

/** A person's removal, and their reset: removal with a new invitation. */
function createRemovals({ db, now }: Handle) {
  const iso = clock(now);
  return {
    /**
     * Removes a person at once: their sessions (the next request fails), their passkeys
     * (a lost device signs in no more), any invite still pending for their address and any
     * staff change waiting that concerns them or that they asked for.
     */
    async remove(id: string) {
      await db.transaction().execute((trx) => deactivate(trx, iso(), id));
    },

    /**
     * Resets a person (decision 175): as `remove`, then a new invitation for their address
     * and role, marked as a reset. Null when they were no longer active.
     */
    async reset(id: string, options: Omit<InviteOptions, "reset"> = {}) {
      const token = newToken();
      return db.transaction().execute(async (trx) => {
        const row = await deactivate(trx, iso(), id);
        if (!row) return null;
        const invite = inviteRow(iso, token, row.email, row.role, { ...options, reset: true });
        await trx.insertInto("staff_invites").values(invite).execute();
        return { token, expiresAt: invite.expires_at, email: row.email, role: row.role };
      });
    },
  };
}

/** Staff changes waiting for a second manager's agreement (decision 175). */
function createRequests({ db, now }: Handle) {
  const iso = clock(now);

  const request = (row: Selectable<Schema["staff_requests"]>): StoredRequest => ({
    id: row.id,
    change: row.change,
    staffId: row.staff_id,
    email: row.email,
    role: row.role,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
  });

  return {
    async addRequest(request: Omit<StoredRequest, "id" | "requestedAt">): Promise<StoredRequest> {
      const stored = { ...request, id: randomUUID(), requestedAt: iso() };
      await db
        .insertInto("staff_requests")
        .values({
          id: stored.id,
          change: stored.change,
          staff_id: stored.staffId,
          email: stored.email,
          role: stored.role,
          requested_by: stored.requestedBy,
          requested_at: stored.requestedAt,
        })
        .execute();
      return stored;
    },

    /** The staff changes waiting for agreement, oldest first. */
    async requests(): Promise<StoredRequest[]> {
      const rows = await db
        .selectFrom("staff_requests")
        .selectAll()
        .orderBy("requested_at")
        .orderBy("id")
        .execute();
      return rows.map(request);
    },

    /** Takes a waiting change off the list; null when someone else took it first. */
    async takeRequest(id: string): Promise<StoredRequest | null> {
      const row = await db
        .deleteFrom("staff_requests")
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row ? request(row) : null;
    },
  };
}

/** The staff console's people: members, invitations and the changes waiting on them. */
export function createStaffRecords(handle: Handle) {
  return {
    ...createInvites(handle),
    ...createMembers(handle),
    ...createRemovals(handle),
    ...createRequests(handle),
  };
}
