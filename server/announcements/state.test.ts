import { describe, expect, it } from "vitest";

import { allowedActions, type DraftAction, transition } from "./state.ts";
import type { AnnouncementState } from "../../contract/console.ts";

const base = {
  actor: "b",
  author: "a",
  managers: 2,
  needsAcknowledgement: false,
  acknowledged: false,
};

describe("the announcement draft's state machine", () => {
  it("goes draft → submitted → approved → sending → sent", () => {
    expect(transition("draft", "submit", base)).toEqual({ ok: true, to: "submitted" });
    expect(transition("submitted", "approve", base)).toEqual({ ok: true, to: "approved" });
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
    const actions: DraftAction[] = [
      "edit",
      "submit",
      "reopen",
      "approve",
      "send",
      "finish",
      "withdraw",
    ];
    for (const state of Object.keys(legal) as AnnouncementState[]) {
      expect(allowedActions(state)).toEqual(legal[state]);
      for (const action of actions) {
        expect(transition(state, action, base).ok, `${state} ${action}`).toBe(
          legal[state]?.includes(action),
        );
      }
    }
  });

  it("never sends a draft or a submitted announcement, nor withdraws one being sent", () => {
    expect(transition("draft", "send", base)).toMatchObject({ ok: false });
    expect(transition("submitted", "send", base)).toMatchObject({ ok: false });
    expect(transition("sending", "withdraw", base)).toMatchObject({ ok: false });
    expect(transition("sent", "send", base)).toMatchObject({ ok: false });
  });

  it("refuses the author's approval while another manager exists", () => {
    const own = { ...base, actor: "a" };
    expect(transition("submitted", "approve", own)).toEqual({
      ok: false,
      reason: "Another manager must approve an announcement you wrote.",
    });
    expect(transition("submitted", "approve", { ...own, managers: 1 })).toEqual({
      ok: true,
      to: "approved",
    });
  });

  it("lets any manager approve what the CLI submitted, and the CLI approve nothing", () => {
    expect(transition("submitted", "approve", { ...base, author: null })).toMatchObject({
      ok: true,
    });
    expect(transition("submitted", "approve", { ...base, actor: null })).toMatchObject({
      ok: false,
    });
  });

  it("refuses submission until the warning is acknowledged", () => {
    const warned = { ...base, needsAcknowledgement: true };
    expect(transition("draft", "submit", warned)).toMatchObject({ ok: false });
    expect(transition("draft", "submit", { ...warned, acknowledged: true })).toEqual({
      ok: true,
      to: "submitted",
    });
  });
});
