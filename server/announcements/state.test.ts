import { describe, expect, it } from "vitest";

import { allowedActions, type DraftAction, transition } from "./state.ts";
import type { AnnouncementState } from "../../contract/console.ts";

const base: Parameters<typeof transition>[2] = {
  actor: "b",
  author: "a",
  approvers: ["b"],
  sameWords: true,
  needsAcknowledgement: false,
  acknowledged: false,
};
/** Approving a submitted announcement, with `change` made to the base context. */
const approve = (change: Partial<typeof base> = {}) =>
  transition("submitted", "approve", { ...base, ...change });
const authorRefused = "Another manager must approve an announcement you wrote.";
const wordsChanged = "The words changed since you opened this page.";

describe("the announcement draft's state machine", () => {
  it("goes draft → submitted → approved → sending → sent", () => {
    expect(transition("draft", "submit", base)).toEqual({ ok: true, to: "submitted" });
    expect(approve()).toEqual({ ok: true, to: "approved" });
    expect(transition("approved", "send", base)).toEqual({ ok: true, to: "sending" });
    expect(transition("sending", "finish", base)).toEqual({ ok: true, to: "sent" });
  });

  it("refuses every move not in the table", () => {
    const legal: Record<AnnouncementState, DraftAction[]> = {
      draft: ["edit", "submit", "withdraw"],
      submitted: ["reopen", "approve", "withdraw"],
      approved: ["reopen", "send", "withdraw"],
      sending: ["send", "finish"],
      sent: [],
      withdrawn: [],
    };
    const actions = ["edit", "submit", "reopen", "approve", "send", "finish", "withdraw"] as const;
    for (const state of Object.keys(legal) as AnnouncementState[]) {
      expect(allowedActions(state)).toEqual(legal[state]);
      for (const action of actions) {
        expect(transition(state, action, base).ok, `${state} ${action}`).toBe(
          legal[state]?.includes(action),
        );
      }
    }
  });

  it("refuses the author's approval while another manager may approve it", () => {
    expect(approve({ actor: "a" })).toEqual({ ok: false, reason: authorRefused });
    expect(approve({ actor: "a", approvers: [] })).toEqual({ ok: true, to: "approved" });
  });

  it("refuses a manager the author cannot be told apart from", () => {
    expect(approve({ approvers: ["c"] })).toEqual({
      ok: false,
      reason:
        "You cannot approve this announcement: you or its author was made a manager by the other alone. Another manager must approve it.",
    });
  });

  it("counts submitting, approving and sending only for the words the actor saw", () => {
    const changed = { ...base, sameWords: false };
    const refused = { ok: false, reason: wordsChanged };
    expect(transition("draft", "submit", changed)).toEqual(refused);
    expect(transition("submitted", "approve", changed)).toEqual(refused);
    expect(transition("approved", "send", changed)).toEqual(refused);
    expect(transition("sending", "send", changed)).toEqual(refused);
    // Steps that vouch for no words need none.
    expect(transition("submitted", "reopen", changed)).toMatchObject({ ok: true });
    expect(transition("approved", "withdraw", changed)).toMatchObject({ ok: true });
    expect(transition("draft", "edit", changed)).toMatchObject({ ok: true });
    expect(transition("sending", "finish", changed)).toMatchObject({ ok: true });
  });

  it("says first that the author may not approve, then that the words changed, then the warning", () => {
    const all = { sameWords: false, needsAcknowledgement: true };
    expect(approve({ ...all, actor: "a" })).toMatchObject({ reason: authorRefused });
    expect(approve(all)).toMatchObject({ reason: wordsChanged });
  });

  it("lets any manager approve what the CLI submitted, and the CLI approve nothing", () => {
    expect(approve({ author: null })).toMatchObject({ ok: true });
    expect(approve({ actor: null })).toMatchObject({ ok: false });
  });

  it("refuses submission and approval until the actor acknowledges the warning", () => {
    const warned = { ...base, needsAcknowledgement: true };
    for (const [from, action, to] of [
      ["draft", "submit", "submitted"],
      ["submitted", "approve", "approved"],
    ] as const) {
      expect(transition(from, action, warned)).toEqual({
        ok: false,
        reason:
          "Tick the box to confirm you have read the warning about prescription-only medicines and prices.",
      });
      expect(transition(from, action, { ...warned, acknowledged: true })).toEqual({ ok: true, to });
    }
    expect(transition("approved", "send", warned)).toEqual({ ok: true, to: "sending" });
  });
});
