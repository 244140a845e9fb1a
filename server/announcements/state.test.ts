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
const to = (state: AnnouncementState) => ({ ok: true, to: state });
const no = (reason: string) => ({ ok: false, reason });
const authorRefused = no("Another manager must approve an announcement you wrote.");
const wordsChanged = no("The words changed since you opened this page.");
const unwarned = no(
  "Tick the box to confirm you have read the warning about prescription-only medicines and prices.",
);
const toldApart = no(
  "You cannot approve this announcement: you or its author was made a manager by the other alone. Another manager must approve it.",
);
const cliRefused = no("Announcements are approved in the staff console.");
const byAuthor = { actor: "a" };
const changed = { sameWords: false };
const warned = { needsAcknowledgement: true };

describe("the announcement draft's state machine", () => {
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

  // Each row: the state, the step, what differs from `base`, and the answer.
  it.each<[AnnouncementState, DraftAction, Partial<typeof base>, object]>([
    ["draft", "submit", {}, to("submitted")],
    ["submitted", "approve", {}, to("approved")],
    ["approved", "send", {}, to("sending")],
    ["sending", "finish", {}, to("sent")],
    // The author approves only when no other manager may.
    ["submitted", "approve", byAuthor, authorRefused],
    ["submitted", "approve", { ...byAuthor, approvers: [] }, to("approved")],
    ["submitted", "approve", { approvers: ["c"] }, toldApart],
    // Submitting, approving and sending count only for the words the actor saw.
    ["draft", "submit", changed, wordsChanged],
    ["submitted", "approve", changed, wordsChanged],
    ["approved", "send", changed, wordsChanged],
    ["sending", "send", changed, wordsChanged],
    // Steps that vouch for no words need none.
    ["submitted", "reopen", changed, to("draft")],
    ["approved", "withdraw", changed, to("withdrawn")],
    ["draft", "edit", changed, to("draft")],
    ["sending", "finish", changed, to("sent")],
    // First that the author may not approve, then that the words changed, then the warning.
    ["submitted", "approve", { ...changed, ...warned, ...byAuthor }, authorRefused],
    ["submitted", "approve", { ...changed, ...warned }, wordsChanged],
    // Any manager approves what the CLI submitted; the CLI approves nothing.
    ["submitted", "approve", { author: null }, to("approved")],
    ["submitted", "approve", { actor: null }, cliRefused],
    // Submission and approval wait until the actor acknowledges the warning; sending does not.
    ["draft", "submit", warned, unwarned],
    ["draft", "submit", { ...warned, acknowledged: true }, to("submitted")],
    ["submitted", "approve", warned, unwarned],
    ["submitted", "approve", { ...warned, acknowledged: true }, to("approved")],
    ["approved", "send", warned, to("sending")],
  ])("%s, %s with %j", (from, action, change, answer) => {
    expect(transition(from, action, { ...base, ...change })).toEqual(answer);
  });
});
