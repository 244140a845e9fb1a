import { createHash, randomUUID } from "node:crypto";

import {
  announcementId,
  announcementProblem,
  isAudience,
  planAnnouncement,
  queueAnnouncement,
} from "./queue.ts";
import { withoutInvisible } from "./reading.ts";
import { transition, type DraftAction, allowedActions } from "./state.ts";
import { announcementWarning } from "./warning.ts";
import {
  type AnnouncementInput,
  type AnnouncementSeen,
  type AnnouncementState,
  type AnnouncementStep,
  type AnnouncementSummary,
  type AnnouncementView,
  type AuditRecord,
  type Refusal,
  refuse,
  type StaffMember,
} from "../../contract/console.ts";
import type { Database, Db } from "../db/schema.ts";
import { guardAll, timeOrderedId } from "../db/writes.ts";
import { buildEmail } from "../mail/build-email.ts";
import type { Mailer } from "../mail/transport.ts";
import { announcementProgress } from "../outbox/summary.ts";

type Draft = Database["announcement_drafts"];

/** The words and audience a page showed (decision 176): a step counts only for these. */
function wordsVersion(draft: Pick<Draft, "subject" | "body" | "audience">): string {
  return createHash("sha256")
    .update(JSON.stringify([draft.subject, draft.body, draft.audience]), "utf8")
    .digest("base64url");
}

/** For moves that vouch for no words (edit, finish): no version, no tick. */
const unseen: AnnouncementSeen = {};

const summaryOf = (draft: Draft): AnnouncementSummary => ({
  id: draft.id,
  subject: draft.subject,
  audience: draft.audience,
  state: draft.state,
  updatedAt: draft.updated_at,
  // A lone manager approved their own words; it stays said once sent.
  approvedAlone:
    draft.approved_by !== null &&
    draft.approved_by === draft.author_id &&
    ["approved", "sending", "sent"].includes(draft.state),
});

/** The email as the worker builds it, for a nameless recipient; its unsubscribe link is no one's. */
function renderAnnouncement(
  draft: { subject: string; body: string },
  links: { siteOrigin: string; linkKey: string },
  to = "recipient@example.com",
  outboxId = "preview",
) {
  return buildEmail(
    {
      outboxId,
      topic: "announcement",
      registration: {
        id: "preview",
        name: "",
        email: to,
        receivedAt: new Date(0).toISOString(),
        wantsUpdates: false,
      },
      announcement: { subject: draft.subject.trim(), body: draft.body.trim() },
    },
    links,
  );
}

/** Every inline style the announcement email uses, for the console CSP's hashes. */
export function announcementStyles(): string[] {
  const { html } = renderAnnouncement(
    { subject: "s", body: "b" },
    { siteOrigin: "https://x.example", linkKey: "k" },
  );
  return [...new Set([...String(html).matchAll(/ style="([^"]*)"/g)].map((m) => m[1] ?? ""))];
}

type DraftsOptions = {
  db: Db;
  now: () => Date;
  mailer: Mailer;
  siteOrigin: string;
  linkKey: string;
  mailPerMinute: number;
  wakeMail: () => void;
  audit: (record: AuditRecord) => Promise<void>;
  /** The ids of the managers other than the author who may approve the author's work. */
  approvers: (authorId: string | null) => Promise<string[]>;
};

/** What every step of the four-eyes path needs: the options and a few look-ups. */
type Drafts = ReturnType<typeof context>;

function context(options: DraftsOptions) {
  const { db, now } = options;
  return {
    options,
    db,
    now,
    iso: () => now().toISOString(),
    audit: (
      actor: StaffMember | null,
      action: string,
      detail: Record<string, string | number | boolean>,
    ) =>
      options.audit({
        staffId: actor?.id ?? null,
        action,
        detail: actor ? detail : { ...detail, by: "cli" },
      }),
    find: (id: string) =>
      db.selectFrom("announcement_drafts").selectAll().where("id", "=", id).executeTakeFirst(),
    emailOf: async (staffId: string | null) =>
      staffId === null
        ? null
        : ((
            await db
              .selectFrom("staff")
              .select("email")
              .where("id", "=", staffId)
              .executeTakeFirst()
          )?.email ?? "a former staff member"),
  };
}

/**
 * Only if the row is still where it was read, words and all: two clicks, one winner, and
 * words rewritten between the check and the update move nothing.
 */
async function move(
  c: Drafts,
  draft: Draft,
  actor: StaffMember | null,
  action: DraftAction,
  seen: AnnouncementSeen = unseen,
  extra: Partial<Draft> = {},
): Promise<{ ok: true; to: AnnouncementState } | Refusal> {
  const result = transition(draft.state, action, {
    actor: actor?.id ?? null,
    author: draft.author_id,
    approvers: await c.options.approvers(draft.author_id),
    sameWords: seen.version === wordsVersion(draft),
    needsAcknowledgement: announcementWarning(draft.subject, draft.body) !== null,
    acknowledged: seen.acknowledged === true,
  });
  if (!result.ok) return refuse(result.reason);
  const changed = await c.db
    .updateTable("announcement_drafts")
    .set({ ...extra, state: result.to, updated_at: c.iso() })
    .where("id", "=", draft.id)
    .where("state", "=", draft.state)
    .where("subject", "=", draft.subject)
    .where("body", "=", draft.body)
    .where("audience", "=", draft.audience)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) {
    return refuse("Someone else changed this announcement just now. Look at it again.");
  }
  return { ok: true, to: result.to };
}

async function progress(c: Drafts, draft: Draft) {
  const { waiting, ...rest } = await announcementProgress(c.db, draft.announcement_id, c.now());
  return { ...rest, queued: waiting };
}

async function settle(c: Drafts, draft: Draft): Promise<Draft> {
  // A send stopped before its last email was queued stays open, to be resumed.
  if (draft.state !== "sending" || draft.queued_at === null) return draft;
  if ((await progress(c, draft)).queued > 0) return draft;
  const done = await move(c, draft, null, "finish", unseen, { finished_at: c.iso() });
  return done.ok ? { ...draft, state: done.to } : draft;
}

/** The text as stored: without the characters a reader cannot see (decision 174). */
const takeIn = <T extends AnnouncementInput>(input: T): T => ({
  ...input,
  body: withoutInvisible(input.body),
});

const textOf = (input: AnnouncementInput) => ({
  subject: input.subject.trim(),
  body: input.body.trim(),
  audience: input.audience,
  announcement_id: announcementId(input.subject, input.body),
});

async function insert(
  c: Drafts,
  input: AnnouncementInput,
  fields: Pick<Draft, "state" | "author_id"> & Partial<Draft>,
): Promise<string> {
  const id = timeOrderedId(c.now().getTime());
  await c.db
    .insertInto("announcement_drafts")
    .values({ id, ...textOf(input), created_at: c.iso(), updated_at: c.iso(), ...fields })
    .execute();
  return id;
}

function checkInput(input: AnnouncementInput): Refusal | null {
  const problem = announcementProblem(input.subject, input.body);
  if (problem) return refuse(problem);
  if (!isAudience(input.audience)) return refuse("Choose who receives it.");
  return null;
}

async function queue(c: Drafts, draft: Draft, actor: StaffMember | null, seen: AnnouncementSeen) {
  const moved = await move(c, draft, actor, "send", seen, {
    sent_by: actor?.id ?? null,
    send_started_at: draft.send_started_at ?? c.iso(),
    queued_at: null,
  });
  if (!moved.ok) return moved;
  const result = await queueAnnouncement(c.db, {
    subject: draft.subject,
    body: draft.body,
    audience: draft.audience,
    now: c.now(),
    perMinute: c.options.mailPerMinute,
  });
  await c.db
    .updateTable("announcement_drafts")
    .set({ queued_at: c.iso() })
    .where("id", "=", draft.id)
    .execute();
  c.options.wakeMail();
  await c.audit(actor, "announcement-sent", {
    draft: draft.id,
    audience: draft.audience,
    queued: result.newRecipients,
  });
  return result;
}

const stepsFor = (
  draft: Draft,
  actor: StaffMember,
  approvers: readonly string[],
): AnnouncementStep[] => {
  const steps: AnnouncementStep[] = allowedActions(draft.state).filter(
    (a): a is Exclude<DraftAction, "finish"> => a !== "finish",
  );
  const mayApprove =
    draft.author_id === actor.id ? approvers.length === 0 : approvers.includes(actor.id);
  const open = ["draft", "submitted", "approved"].includes(draft.state);
  return [
    ...steps.filter((s) => s !== "approve" || mayApprove),
    ...(open ? (["test"] as const) : []),
  ];
};

async function list(c: Drafts): Promise<AnnouncementSummary[]> {
  const rows = await c.db
    .selectFrom("announcement_drafts")
    .selectAll()
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
  return (await Promise.all(rows.map((d) => settle(c, d)))).map(summaryOf);
}

async function view(c: Drafts, actor: StaffMember, id: string): Promise<AnnouncementView | null> {
  const found = await c.find(id);
  if (!found) return null;
  const draft = await settle(c, found);
  const approvers = await c.options.approvers(draft.author_id);
  const plan = await planAnnouncement(c.db, draft.subject, draft.body, draft.audience);
  const email = renderAnnouncement(draft, c.options);
  return {
    ...summaryOf(draft),
    body: draft.body,
    version: wordsVersion(draft),
    author: await c.emailOf(draft.author_id),
    writtenByYou: draft.author_id === actor.id,
    approvedBy: await c.emailOf(draft.approved_by),
    approvedAt: draft.approved_at,
    warning: announcementWarning(draft.subject, draft.body),
    acknowledgedBy: draft.warning_acknowledged_at
      ? ((await c.emailOf(draft.warning_acknowledged_by)) ?? "the command line")
      : null,
    approvalAcknowledged: draft.approval_acknowledged_at !== null,
    preview: { subject: String(email.subject), html: String(email.html), text: String(email.text) },
    recipients: { fresh: plan.newRecipients, already: plan.alreadyQueued },
    progress: ["sending", "sent"].includes(draft.state) ? await progress(c, draft) : null,
    otherApprovers: approvers.length,
    steps: stepsFor(draft, actor, approvers),
  };
}

async function compose(
  c: Drafts,
  actor: StaffMember,
  given: AnnouncementInput,
  id?: string,
): Promise<{ ok: true; id: string } | Refusal> {
  const input = takeIn(given);
  const problem = checkInput(input);
  if (problem) return problem;
  if (id !== undefined) {
    const draft = await c.find(id);
    if (!draft) return refuse("That announcement no longer exists.");
    // Whoever last wrote the words is their author, and so cannot approve them.
    const moved = await move(c, draft, actor, "edit", unseen, {
      ...textOf(input),
      author_id: actor.id,
      // A changed text needs the warning read again.
      warning_acknowledged_by: null,
      warning_acknowledged_at: null,
    });
    if (!moved.ok) return moved;
    await c.audit(actor, "announcement-edited", { draft: id });
    return { ok: true, id };
  }
  const created = await insert(c, input, { state: "draft", author_id: actor.id });
  await c.audit(actor, "announcement-composed", { draft: created });
  return { ok: true, id: created };
}

async function step(
  c: Drafts,
  actor: StaffMember,
  id: string,
  step: Exclude<AnnouncementStep, "edit">,
  seen: AnnouncementSeen = unseen,
): Promise<{ ok: true } | Refusal> {
  const draft = await c.find(id);
  if (!draft) return refuse("That announcement no longer exists.");
  const at = c.iso();
  switch (step) {
    case "test": {
      if (!["draft", "submitted", "approved"].includes(draft.state))
        return refuse("A test can be sent only before the announcement goes out.");
      const email = renderAnnouncement(draft, c.options, actor.email, `test-${randomUUID()}`);
      // To the signed-in manager only, never a registrant; it counts as no sending.
      await c.options.mailer.send({ ...email, subject: `Test: ${draft.subject}` });
      await c.audit(actor, "announcement-test-sent", { draft: id });
      return { ok: true };
    }
    case "send": {
      const result = await queue(c, draft, actor, seen);
      return "ok" in result ? result : { ok: true };
    }
    default: {
      const acknowledged = seen.acknowledged === true;
      const ack = acknowledged && {
        warning_acknowledged_by: actor.id,
        warning_acknowledged_at: at,
      };
      const effects: Record<typeof step, [string, Partial<Draft>]> = {
        submit: ["announcement-submitted", { submitted_at: at, ...ack }],
        approve: [
          "announcement-approved",
          {
            approved_by: actor.id,
            approved_at: at,
            approval_acknowledged_at: acknowledged ? at : null,
          },
        ],
        reopen: [
          "announcement-reopened",
          {
            approved_by: null,
            approved_at: null,
            approval_acknowledged_at: null,
            submitted_at: null,
          },
        ],
        withdraw: ["announcement-withdrawn", { withdrawn_at: at }],
      };
      const [action, extra] = effects[step];
      const moved = await move(c, draft, actor, step, seen, extra);
      if (!moved.ok) return moved;
      await c.audit(actor, action, {
        draft: id,
        ...(acknowledged && (step === "submit" || step === "approve")
          ? { warning: "acknowledged" }
          : {}),
        // Allowed only when no other manager may approve it (decision 176).
        ...(step === "approve" && actor.id === draft.author_id ? { alone: true } : {}),
      });
      return { ok: true };
    }
  }
}

/** `registrations -- announce`: queues only what a manager approved, else submits it once. */
async function fromCli(c: Drafts, given: AnnouncementInput & { acknowledged: boolean }) {
  const input = takeIn(given);
  const problem = checkInput(input);
  if (problem) return { kind: "refused", message: problem.message } as const;
  const drafts = await c.db
    .selectFrom("announcement_drafts")
    .selectAll()
    .where("announcement_id", "=", announcementId(input.subject, input.body))
    .where("audience", "=", input.audience)
    .where("state", "!=", "withdrawn")
    .orderBy("created_at", "desc")
    .execute();
  const ready = drafts.find((d) => d.state === "approved" || d.state === "sending");
  if (ready) {
    // The command line's own words found this draft, so they are the words it sends.
    const result = await queue(c, ready, null, { version: wordsVersion(ready) });
    if ("ok" in result) return { kind: "refused", message: result.message } as const;
    return { kind: "queued", draftId: ready.id, result } as const;
  }
  const sent = drafts.find((d) => d.state === "sent");
  if (sent) return { kind: "sent", draftId: sent.id } as const;
  const waiting = drafts[0];
  if (waiting) return { kind: "waiting", draftId: waiting.id, state: waiting.state } as const;
  const warning = announcementWarning(input.subject, input.body);
  if (warning && !input.acknowledged) return { kind: "warning", ...warning } as const;
  const id = await insert(c, input, {
    state: "submitted",
    author_id: null,
    submitted_at: c.iso(),
    warning_acknowledged_at: input.acknowledged ? c.iso() : null,
  });
  await c.audit(null, "announcement-submitted", { draft: id });
  return { kind: "submitted", draftId: id } as const;
}

/** The four-eyes path (decision 136); a null actor is the terminal, which never approves. */
export function createAnnouncementDrafts(options: DraftsOptions) {
  const c = context(options);
  const bound =
    <A extends unknown[], R>(operation: (c: Drafts, ...args: A) => Promise<R>) =>
    (...args: A) =>
      operation(c, ...args);
  return guardAll({
    list: bound(list),
    view: bound(view),
    compose: bound(compose),
    step: bound(step),
    fromCli: bound(fromCli),
  });
}

export type AnnouncementDrafts = ReturnType<typeof createAnnouncementDrafts>;
