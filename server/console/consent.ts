import type { StaffChange, StaffRole } from "../../contract/console.ts";

/**
 * Who may agree to whose staff change, and who may approve whose announcement
 * (docs/decisions/175), from who granted each manager role alone. Pure: the store loads
 * every staff row (a clinic's staff are few) and asks here.
 */

export type Lineage = {
  id: string;
  role: StaffRole;
  active: boolean;
  /**
   * Who alone granted this person's latest manager role (they were the only manager then);
   * null when the command line granted it or a second manager agreed. Kept after a
   * demotion or a removal, so a chain of lone grants can always be followed.
   */
  managerBy: string | null;
};

/**
 * The lone-grant groups: two people are in one group when one of them made the other a
 * manager alone, directly or through others. The console cannot tell the people of one
 * group apart (one person could hold every account), so one group's agreement is one pair
 * of eyes.
 */
export function groups(rows: readonly Lineage[]): (id: string) => string {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) ?? root;
    parent.set(id, root);
    return root;
  };
  for (const row of rows) {
    if (row.managerBy === null) continue;
    const a = find(row.id);
    const b = find(row.managerBy);
    if (a !== b) parent.set(a, b);
  }
  return find;
}

/** True when `ancestor` made `id` a manager alone, directly or through a chain of lone grants. */
export function grantedBy(rows: readonly Lineage[], id: string, ancestor: string): boolean {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  let at = byId.get(id)?.managerBy ?? null;
  while (at !== null && !seen.has(at)) {
    if (at === ancestor) return true;
    seen.add(at);
    at = byId.get(at)?.managerBy ?? null;
  }
  return false;
}

/**
 * The managers who may approve what `authorId` wrote: active, someone else, and outside the
 * author's lone-grant group, since either of two people in one group may hold both accounts.
 * A null author (the command line) may be approved by every manager.
 */
export function approversFor(rows: readonly Lineage[], authorId: string | null): string[] {
  const group = groups(rows);
  return rows
    .filter(
      (r) =>
        r.active &&
        r.role === "manager" &&
        r.id !== authorId &&
        (authorId === null || group(r.id) !== group(authorId)),
    )
    .map((r) => r.id);
}

/**
 * The managers who may agree to a change `requesterId` asks for: active, someone else, and
 * outside the requester's lone-grant group.
 */
export const agreersFor = (rows: readonly Lineage[], requesterId: string) =>
  approversFor(rows, requesterId);

/** Whether lowering `targetId`'s role needs no one else: the actor alone made them a manager. */
export function lowersNoApprover(rows: readonly Lineage[], actorId: string, targetId: string) {
  return targetId !== actorId && grantedBy(rows, targetId, actorId);
}

export type Proposal = {
  change: StaffChange;
  /** The person it concerns; null for an invitation. */
  staffId: string | null;
  requestedBy: string;
};

/**
 * Who may agree to a proposal: an active manager other than who asked for it, outside their
 * lone-grant group; or, for a demotion or a removal, the person it concerns. Never the
 * person being reset (their sessions end with it).
 */
export function mayAgree(rows: readonly Lineage[], proposal: Proposal, agreerId: string): boolean {
  const concerned = proposal.staffId === agreerId;
  if (concerned && proposal.change === "reset") return false;
  const agreer = rows.find((r) => r.id === agreerId);
  if (!agreer?.active || agreer.role !== "manager" || agreerId === proposal.requestedBy)
    return false;
  if (concerned && (proposal.change === "role" || proposal.change === "remove")) return true;
  return agreersFor(rows, proposal.requestedBy).includes(agreerId);
}

/** Every manager who could agree to a proposal now. */
export function possibleAgreers(rows: readonly Lineage[], proposal: Proposal): string[] {
  return rows.filter((r) => mayAgree(rows, proposal, r.id)).map((r) => r.id);
}
