import { describe, expect, it } from "vitest";

import {
  agreersFor,
  approversFor,
  grantedBy,
  type Lineage,
  lowersNoApprover,
  mayAgree,
} from "./consent.ts";

const manager = (id: string, managerBy: string | null = null, active = true): Lineage => ({
  id,
  role: "manager",
  active,
  managerBy,
});
const viewer = (id: string): Lineage => ({ id, role: "viewer", active: true, managerBy: null });

describe("approvers and agreement from lone grants (decision 175)", () => {
  it("counts every other manager when none was made a manager alone", () => {
    const rows = [manager("a"), manager("b"), viewer("v")];
    expect(approversFor(rows, "a")).toEqual(["b"]);
    expect(approversFor(rows, null)).toEqual(["a", "b"]);
    expect(agreersFor(rows, "a")).toEqual(["b"]);
  });

  it("does not count, for an author, anyone of their lone-grant group, down a chain", () => {
    // a was the only manager and made c a manager alone; c then made d one alone.
    const rows = [manager("a"), manager("c", "a"), manager("d", "c")];
    expect(grantedBy(rows, "d", "a")).toBe(true);
    expect(approversFor(rows, "a")).toEqual([]);
    // a may hold c's account as well as its own: neither approves the other's work.
    expect(approversFor(rows, "c")).toEqual([]);
    expect(approversFor([...rows, manager("b")], "c")).toEqual(["b"]);
    // A former manager in the chain still links it.
    const gone = [manager("a"), manager("c", "a", false), manager("d", "c")];
    expect(approversFor(gone, "a")).toEqual([]);
  });

  it("one lone-grant group is one pair of eyes: none of it agrees for another of it", () => {
    const rows = [manager("a"), manager("c", "a"), manager("d", "a"), manager("b")];
    expect(agreersFor(rows, "a")).toEqual(["b"]);
    expect(agreersFor(rows, "c"), "not a, not its sibling d").toEqual(["b"]);
    expect(agreersFor(rows, "b").sort()).toEqual(["a", "c", "d"]);
    // A cycle (demoted, then made a manager alone again the other way) is still one group.
    const cycle = [manager("a", "c"), manager("c", "a")];
    expect(agreersFor(cycle, "a")).toEqual([]);
  });

  it("the person demoted or removed may agree; the person reset may not; nobody agrees to their own", () => {
    const rows = [manager("a"), manager("b"), manager("c", "a"), viewer("v")];
    const demote = { change: "role" as const, staffId: "b", requestedBy: "a" };
    expect(mayAgree(rows, demote, "b")).toBe(true);
    expect(mayAgree(rows, demote, "a")).toBe(false);
    expect(mayAgree(rows, demote, "c"), "made a manager by a alone").toBe(false);
    expect(mayAgree(rows, demote, "v"), "a viewer").toBe(false);
    expect(mayAgree(rows, { ...demote, change: "remove" }, "b")).toBe(true);
    expect(mayAgree(rows, { ...demote, change: "reset" }, "b")).toBe(false);
    const ofC = { change: "remove" as const, staffId: "c", requestedBy: "a" };
    expect(mayAgree(rows, ofC, "c"), "c agrees to leave").toBe(true);
    expect(lowersNoApprover(rows, "a", "c")).toBe(true);
    expect(lowersNoApprover(rows, "a", "b")).toBe(false);
    expect(lowersNoApprover(rows, "c", "a")).toBe(false);
  });
});
