import { randomUUID } from "node:crypto";

import { z } from "zod";

import { agreersFor, lowersNoApprover, mayAgree, possibleAgreers } from "./consent.ts";
import type { StoredRequest } from "./staff.ts";
import type { StaffStore } from "./store.ts";
import { staffInviteEmail } from "../../app/content/console.ts";
import {
  type AuditEntry,
  type Invitation,
  type Refusal,
  refuse,
  STAFF_ROLES,
  type StaffChange,
  type StaffMember,
  type StaffRequest,
  type StaffRole,
} from "../../contract/console.ts";
import type { Logger } from "../logger.ts";
import type { Mailer } from "../mail/transport.ts";

/**
 * Changes to the staff (docs/decisions/133, 175): invitations, roles, removals and resets,
 * at once from the command line, or in the console waiting for a second manager's
 * agreement where one could give it. Every change is audited under its actor.
 */

type Deps = {
  store: StaffStore;
  consoleOrigin: string;
  mailer?: Mailer;
  logger?: Pick<Logger, "warn">;
};

export type Manager = StaffMember & { role: "manager" };
/** A manager in the console, or (null) the operator at the terminal. */
type Actor = Manager | null;

const emailSchema = z.email();

type Detail = AuditEntry["detail"];

/** An audit line under the actor; the command line's say so. */
export const auditBy = (
  store: Pick<StaffStore, "audit">,
  actor: StaffMember | null,
  action: string,
  detail: Detail = {},
) =>
  store.audit({
    staffId: actor?.id ?? null,
    action,
    detail: actor ? detail : { ...detail, by: "cli" },
  });

/** A change made at once; `link` is for the command line only (forRequest drops it). */
type Applied = { ok: true; pending: false; invitation?: Invitation; link?: string };
export type Outcome = Applied | { ok: true; pending: true } | Refusal;

const notListed = refuse("That person is not on the staff list.");

/**
 * Emails a new link to its address when there is a mailer; the console then never shows
 * it (whoever holds the link becomes that person). Without a mailer it is shown once. If
 * the email fails, the console withdraws the invite; the command line prints the link.
 */
async function deliver(
  d: Deps,
  actor: Actor,
  made: { token: string; expiresAt: string; email: string; role: StaffRole; reset?: boolean },
): Promise<Applied | Refusal> {
  const { token, email, role, expiresAt } = made;
  const link = `${d.consoleOrigin}/console/enrol?token=${token}`;
  const about = { email, role, expiresAt, reset: made.reset === true };
  if (d.mailer) {
    const words = staffInviteEmail({ link, role, expiresAt: new Date(expiresAt) });
    try {
      await d.mailer.send({ outboxId: randomUUID(), to: email, ...words });
      return { ok: true, pending: false, invitation: { ...about, emailed: true }, link };
    } catch (error) {
      d.logger?.warn({ err: error }, "the invitation email could not be sent");
      if (actor) {
        await d.store.withdrawInvite(token);
        return refuse(
          `The invitation email to ${email} could not be sent, so no link was made. Invite them again in a few minutes.`,
        );
      }
    }
  }
  return { ok: true, pending: false, invitation: { ...about, emailed: false, link }, link };
}

/** Records a change for a second manager to agree to, unless the same one is waiting. */
async function ask(
  d: Deps,
  actor: Manager,
  proposal: Omit<StoredRequest, "id" | "requestedBy" | "requestedAt">,
): Promise<Outcome> {
  const waiting = await d.store.requests();
  if (
    waiting.some(
      (r) =>
        r.change === proposal.change &&
        r.email === proposal.email &&
        r.staffId === proposal.staffId &&
        r.role === proposal.role,
    )
  ) {
    return refuse("That change is already waiting for a second manager's agreement.");
  }
  await d.store.addRequest({ ...proposal, requestedBy: actor.id });
  await auditBy(d.store, actor, "staff-change-requested", {
    change: proposal.change,
    email: proposal.email,
    role: proposal.role,
  });
  return { ok: true, pending: true };
}

/**
 * Whether `actor` (in the console) must ask a second manager first (decision 175): a
 * change that adds a manager (`role`), when someone outside their lone-grant group could
 * agree; one that lowers a manager, unless the actor alone made them a manager. "alone":
 * act now; else the change recorded for a second manager (ask), or a refusal when it
 * needs a second manager and none can agree.
 */
async function consent(
  d: Deps,
  actor: Manager,
  change: StaffChange,
  target: StaffMember | { id: null; email: string; role?: undefined },
  role: StaffRole | null,
): Promise<"alone" | Outcome> {
  const rows = await d.store.lineage();
  const asks = () => ask(d, actor, { change, staffId: target.id, email: target.email, role });
  if (role === "manager") return agreersFor(rows, actor.id).length > 0 ? asks() : "alone";
  if (target.role !== "manager") return "alone";
  if (lowersNoApprover(rows, actor.id, target.id)) return "alone";
  const agreers = possibleAgreers(rows, { change, staffId: target.id, requestedBy: actor.id });
  if (agreers.length > 0) return asks();
  if (target.id === actor.id) return "alone";
  return refuse(
    "Another manager must agree to this, and no other manager can. The server's operator can do it with npm run staff.",
  );
}

async function inviteOrAsk(
  d: Deps,
  actor: Actor,
  email: string,
  role: StaffRole,
  mayAsk: boolean,
  extra: Detail = {},
): Promise<Outcome> {
  const address = email.trim().toLowerCase();
  if (!emailSchema.safeParse(address).success) return refuse("Enter an email address.");
  if (!STAFF_ROLES.includes(role)) return refuse("Choose viewer or manager.");
  if (await d.store.activeByEmail(address)) {
    return refuse(
      `${address} is already on the staff list. An invitation never changes an account: change their role there, or reset them if they lost their passkeys.`,
    );
  }
  let managerBy: string | null = null;
  if (actor && mayAsk && role === "manager") {
    const need = await consent(d, actor, "invite", { id: null, email: address }, role);
    if (need !== "alone") return need;
    managerBy = actor.id;
  }
  const made = await d.store.createInvite(address, role, {
    invitedBy: actor?.id ?? null,
    managerBy,
  });
  const delivered = await deliver(d, actor, { ...made, email: address, role });
  if (!delivered.ok) return delivered;
  await auditBy(d.store, actor, "staff-invited", {
    email: address,
    role,
    ...(managerBy ? { alone: true } : {}),
    ...extra,
  });
  return delivered;
}

async function checkManagersLeft(d: Deps, target: Pick<StaffMember, "role">, newRole?: StaffRole) {
  if (target.role !== "manager" || newRole === "manager") return null;
  return (await d.store.managers()) <= 1
    ? refuse("The console needs at least one manager: make someone else a manager first.")
    : null;
}

async function applyRemove(d: Deps, actor: Actor, target: StaffMember, extra: Detail = {}) {
  const problem = await checkManagersLeft(d, target);
  if (problem) return problem;
  await d.store.remove(target.id);
  await auditBy(d.store, actor, "staff-removed", { email: target.email, ...extra });
  return { ok: true as const, pending: false as const };
}

async function applyRole(
  d: Deps,
  actor: Actor,
  target: StaffMember,
  role: StaffRole,
  managerBy: string | null,
  extra: Detail = {},
): Promise<Outcome> {
  const problem = await checkManagersLeft(d, target, role);
  if (problem) return problem;
  if (!(await d.store.setRole(target.id, target.role, role, managerBy))) {
    return refuse("Someone changed this person's role just now. Look at the list again.");
  }
  await auditBy(d.store, actor, "staff-role-changed", {
    email: target.email,
    from: target.role,
    to: role,
    ...(managerBy ? { alone: true } : {}),
    ...extra,
  });
  return { ok: true, pending: false };
}

async function applyReset(
  d: Deps,
  actor: Actor,
  target: StaffMember,
  managerBy: string | null,
  extra: Detail = {},
): Promise<Outcome> {
  const made = await d.store.reset(target.id, { invitedBy: actor?.id ?? null, managerBy });
  if (!made) return notListed;
  await auditBy(d.store, actor, "staff-reset", {
    email: target.email,
    role: target.role,
    ...(managerBy ? { alone: true } : {}),
    ...extra,
  });
  return deliver(d, actor, { ...made, reset: true });
}

async function remove(d: Deps, actor: Actor, staffId: string): Promise<Outcome> {
  const target = await d.store.activeById(staffId);
  if (!target) return notListed;
  const problem = await checkManagersLeft(d, target);
  if (problem) return problem;
  const need = actor ? await consent(d, actor, "remove", target, null) : "alone";
  return need === "alone" ? applyRemove(d, actor, target) : need;
}

async function changeRole(
  d: Deps,
  actor: Actor,
  staffId: string,
  role: StaffRole,
): Promise<Outcome> {
  if (!STAFF_ROLES.includes(role)) return refuse("Choose viewer or manager.");
  const target = await d.store.activeById(staffId);
  if (!target) return notListed;
  if (target.role === role) return { ok: true, pending: false };
  const problem = await checkManagersLeft(d, target, role);
  if (problem) return problem;
  const need = actor ? await consent(d, actor, "role", target, role) : "alone";
  if (need !== "alone") return need;
  return applyRole(d, actor, target, role, actor && role === "manager" ? actor.id : null);
}

/**
 * Ends every session and passkey of a person and invites them again (decision 175): how a
 * lost passkey is recovered. A manager's reset needs a second manager in the console.
 */
async function reset(d: Deps, actor: Actor, staffId: string): Promise<Outcome> {
  const target = await d.store.activeById(staffId);
  if (!target) return notListed;
  let managerBy: string | null = null;
  if (actor) {
    if (target.id === actor.id) {
      return refuse(
        "You cannot reset yourself here: add a passkey on My passkeys, or ask another manager.",
      );
    }
    const need = await consent(d, actor, "reset", target, null);
    if (need !== "alone") return need;
    // Only reached for someone the actor alone made a manager: they stay so.
    if (target.role === "manager") managerBy = actor.id;
  }
  return applyReset(d, actor, target, managerBy);
}

/** Agree to a waiting change (another manager), which then happens; or cancel your own. */
async function answer(
  d: Deps,
  actor: Manager,
  requestId: string,
  reply: "agree" | "cancel",
): Promise<Outcome> {
  const waiting = (await d.store.requests()).find((r) => r.id === requestId);
  if (!waiting) return refuse("That change is no longer waiting: someone answered it already.");
  const requester = await d.store.activeById(waiting.requestedBy);
  const detail = {
    change: waiting.change,
    email: waiting.email,
    role: waiting.role,
    requestedBy: requester?.email ?? null,
  };
  if (reply === "cancel") {
    if (waiting.requestedBy !== actor.id)
      return refuse("Only the manager who asked can cancel it.");
    if (!(await d.store.takeRequest(waiting.id)))
      return refuse("That change was answered just now.");
    await auditBy(d.store, actor, "staff-change-cancelled", detail);
    return { ok: true, pending: false };
  }
  if (!requester || requester.role !== "manager") {
    await d.store.takeRequest(waiting.id);
    return refuse("The manager who asked for this is no longer a manager, so it was dropped.");
  }
  if (!mayAgree(await d.store.lineage(), waiting, actor.id)) {
    return refuse(
      waiting.requestedBy === actor.id
        ? "Another manager must agree to a change you asked for."
        : waiting.staffId === actor.id
          ? "Another manager must agree to your own reset."
          : "You cannot agree to this one: one of you, or a manager before you, made the other a manager alone.",
    );
  }
  const target = waiting.staffId ? await d.store.activeById(waiting.staffId) : null;
  if (waiting.staffId && !target) {
    await d.store.takeRequest(waiting.id);
    return notListed;
  }
  if (!(await d.store.takeRequest(waiting.id))) return refuse("That change was answered just now.");
  await auditBy(d.store, actor, "staff-change-agreed", detail);
  if (waiting.change === "role" && target?.role === waiting.role)
    return { ok: true, pending: false };
  const agreed = { requestedBy: requester.email };
  switch (waiting.change) {
    case "invite":
      return inviteOrAsk(d, actor, waiting.email, waiting.role ?? "viewer", false, agreed);
    case "role":
      return target
        ? applyRole(d, actor, target, waiting.role ?? "viewer", null, agreed)
        : notListed;
    case "remove":
      return target ? applyRemove(d, actor, target, agreed) : notListed;
    case "reset":
      return target ? applyReset(d, actor, target, null, agreed) : notListed;
  }
}

/** What every manager sees of the waiting changes. */
async function requestsFor(d: Deps, actor: Manager): Promise<StaffRequest[]> {
  const [waiting, rows, people] = await Promise.all([
    d.store.requests(),
    d.store.lineage(),
    d.store.list(),
  ]);
  const emailOf = (id: string) => people.find((p) => p.id === id)?.email ?? "a former manager";
  return waiting.map((r) => ({
    id: r.id,
    change: r.change,
    email: r.email,
    role: r.role,
    requestedBy: emailOf(r.requestedBy),
    requestedAt: r.requestedAt,
    byYou: r.requestedBy === actor.id,
    mayAgree: mayAgree(rows, r, actor.id),
  }));
}

/** The staff changes, for the staff operations (operations.ts) to check the actor of. */
export function staffChanges(d: Deps) {
  const byEmail = async (email: string, change: (staffId: string) => Promise<Outcome>) => {
    const target = await d.store.activeByEmail(email);
    return target ? change(target.id) : refuse("No staff member has that address.");
  };
  return {
    invite: (actor: Actor, email: string, role: StaffRole) =>
      inviteOrAsk(d, actor, email, role, true),
    remove: (actor: Actor, staffId: string) => remove(d, actor, staffId),
    changeRole: (actor: Actor, staffId: string, role: StaffRole) =>
      changeRole(d, actor, staffId, role),
    reset: (actor: Actor, staffId: string) => reset(d, actor, staffId),
    answer: (actor: Manager, requestId: string, reply: "agree" | "cancel") =>
      answer(d, actor, requestId, reply),
    requestsFor: (actor: Manager) => requestsFor(d, actor),
    /** `staff revoke --email`: removes the person with that address. */
    revokeByEmail: (actor: Actor, email: string) => byEmail(email, (id) => remove(d, actor, id)),
    /** `staff reset --email`: the operator's reset, at once, even of the last manager. */
    resetByEmail: (email: string) => byEmail(email, (id) => reset(d, null, id)),
  };
}
