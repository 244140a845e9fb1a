import type { AnnouncementState as DraftState } from "../../contract/console.ts";

// A draft's life (decision 136); the store applies each move with a conditional update.
export type DraftAction = "edit" | "submit" | "reopen" | "approve" | "send" | "finish" | "withdraw";

type TransitionContext = {
  /** The staff id acting; null for the operator at the terminal (the CLI). */
  actor: string | null;
  /** Who wrote the draft; null when it came from the CLI. */
  author: string | null;
  /**
   * The managers other than the author who may approve the author's work: outside the
   * author's lone-grant group (server/console/consent.ts).
   */
  approvers: readonly string[];
  /** The subject, text and audience the actor saw are the draft's now. */
  sameWords: boolean;
  /** The text names a prescription-only medicine or a price. */
  needsAcknowledgement: boolean;
  acknowledged: boolean;
};

/** Steps that commit to the words, so they count only for the words the actor saw. */
const boundToWords: readonly DraftAction[] = ["submit", "approve", "send"];

/** Steps that vouch for the words, so a warning on them must be acknowledged by the actor. */
const acknowledging: readonly DraftAction[] = ["submit", "approve"];

const moves: Record<DraftAction, { from: readonly DraftState[]; to: DraftState }> = {
  edit: { from: ["draft"], to: "draft" },
  submit: { from: ["draft"], to: "submitted" },
  reopen: { from: ["submitted", "approved"], to: "draft" },
  approve: { from: ["submitted"], to: "approved" },
  // Sending again resumes a send that stopped half-way; the dedupe key sends nobody twice.
  send: { from: ["approved", "sending"], to: "sending" },
  finish: { from: ["sending"], to: "sent" },
  withdraw: { from: ["draft", "submitted", "approved"], to: "withdrawn" },
};

const refusals: Record<DraftAction, string> = {
  edit: "Only a draft can be changed.",
  submit: "Only a draft can be submitted for approval.",
  reopen: "Only an announcement waiting to be sent can go back to a draft.",
  approve: "Only an announcement submitted for approval can be approved.",
  send: "Only an approved announcement can be sent.",
  finish: "Only an announcement being sent can be finished.",
  withdraw: "An announcement that has started sending cannot be withdrawn.",
};

export function transition(
  from: DraftState,
  action: DraftAction,
  context: TransitionContext,
): { ok: true; to: DraftState } | { ok: false; reason: string } {
  const move = moves[action];
  if (!move.from.includes(from)) return { ok: false, reason: refusals[action] };
  if (action === "approve") {
    if (context.actor === null) {
      return { ok: false, reason: "Announcements are approved in the staff console." };
    }
    // Four eyes: the author approves only when no other manager may do it.
    if (context.actor === context.author && context.approvers.length > 0) {
      return { ok: false, reason: "Another manager must approve an announcement you wrote." };
    }
    if (context.actor !== context.author && !context.approvers.includes(context.actor)) {
      return {
        ok: false,
        reason:
          "You cannot approve this announcement: you or its author was made a manager by the other alone. Another manager must approve it.",
      };
    }
  }
  if (boundToWords.includes(action) && !context.sameWords) {
    return { ok: false, reason: "The words changed since you opened this page." };
  }
  if (acknowledging.includes(action) && context.needsAcknowledgement && !context.acknowledged) {
    return {
      ok: false,
      reason:
        "Tick the box to confirm you have read the warning about prescription-only medicines and prices.",
    };
  }
  return { ok: true, to: move.to };
}

export function allowedActions(from: DraftState): DraftAction[] {
  return (Object.keys(moves) as DraftAction[]).filter((a) => moves[a].from.includes(from));
}
