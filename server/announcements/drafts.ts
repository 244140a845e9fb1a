import { createHash, randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import { transition, type DraftAction, allowedActions } from "./state.ts";
import { announcementWarning } from "./warning.ts";
import type {
  AnnouncementInput,
  AnnouncementState,
  AnnouncementStep,
  AnnouncementSummary,
  AnnouncementView,
  Refusal,
  StaffMember,
} from "../../contract/console.ts";
import type { AuditRecord } from "../console/store.ts";
import type { Database } from "../db/schema.ts";
import { guardAll, timeOrderedId } from "../db/writes.ts";
import { buildEmail } from "../mail/build-email.ts";
import type { Mailer } from "../mail/transport.ts";
import { newOutboxRow } from "../registrations/register.ts";

type Db = Kysely<Database>;
type Draft = Database["announcement_drafts"];

/** Confirmed, subscribed addresses; `updates`: only those whose newest one asked for news. */
export const AUDIENCES = ["all", "updates"] as const;
export type Audience = (typeof AUDIENCES)[number];

export function isAudience(value: string): value is Audience {
  return (AUDIENCES as readonly string[]).includes(value);
}

const ANNOUNCEMENT_LIMITS = { subject: 150, body: 20_000 } as const;

export function announcementProblem(subject: string, body: string): string | null {
  if (subject.trim() === "") return "The subject is empty.";
  if (/[\r\n]/.test(subject)) return "The subject must be one line.";
  if (subject.length > ANNOUNCEMENT_LIMITS.subject)
    return `The subject is longer than ${ANNOUNCEMENT_LIMITS.subject} characters.`;
  if (body.trim() === "") return "The text is empty.";
  if (body.length > ANNOUNCEMENT_LIMITS.body)
    return `The text is longer than ${ANNOUNCEMENT_LIMITS.body} characters.`;
  return null;
}

/** Same subject and text, same id: running the command again is the same announcement. */
function announcementId(subject: string, body: string): string {
  return createHash("sha256")
    .update(`${subject.trim()}\n\n${body.trim()}`, "utf8")
    .digest("hex")
    .slice(0, 32);
}

/** One announcement to one address: a hash, so no address is copied. */
function dedupeKey(id: string, email: string): string {
  const address = createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");
  return `announcement:${id}:${address}`;
}

/** Each address once, through its newest confirmed one (unsubscribes mark all), not yet queued. */
async function recipients(db: Db, id: string, audience: Audience) {
  const queued = await db
    .selectFrom("outbox")
    .select("dedupe_key")
    .where("announcement_id", "=", id)
    .execute();
  const keys = new Set(queued.map((r) => r.dedupe_key));
  const rows = await db
    .selectFrom("registrations")
    .select(["id", "email", "wants_updates"])
    .where("confirmed_at", "is not", null)
    .where("unsubscribed_at", "is", null)
    .orderBy("received_at", "desc")
    .orderBy("id")
    .execute();
  const seen = new Set<string>();
  const fresh = rows.filter((r) => {
    const address = r.email.trim().toLowerCase();
    if (seen.has(address)) return false;
    seen.add(address);
    return (
      (audience === "all" || Number(r.wants_updates) === 1) && !keys.has(dedupeKey(id, r.email))
    );
  });
  return { fresh, alreadyQueued: queued.length };
}

export async function planAnnouncement(db: Db, subject: string, body: string, audience?: Audience) {
  const id = announcementId(subject, body);
  const { fresh, alreadyQueued } = await recipients(db, id, audience ?? "all");
  return { announcementId: id, newRecipients: fresh.length, alreadyQueued };
}

/** `60 / perMinute` s apart; the dedupe key (text and address) makes re-runs queue the rest. */
export async function queueAnnouncement(
  db: Db,
  options: {
    subject: string;
    body: string;
    now: Date;
    perMinute: number;
    audience?: Audience;
    chunk?: number;
  },
) {
  const subject = options.subject.trim();
  const body = options.body.trim();
  const id = announcementId(subject, body);
  const at = options.now.toISOString();
  await db
    .insertInto("announcements")
    .values({ id, subject, body, created_at: at })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const { fresh, alreadyQueued } = await recipients(db, id, options.audience ?? "all");
  const result = { announcementId: id, newRecipients: 0, alreadyQueued };
  if (fresh.length === 0) return { ...result, firstAt: null, lastAt: null };

  // After the last email this announcement has waiting: a resumed run keeps the pace.
  const gapMs = 60_000 / options.perMinute;
  const last = await db
    .selectFrom("outbox")
    .select((eb) => eb.fn.max("next_attempt_at").as("last"))
    .where("announcement_id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  const startMs = Math.max(options.now.getTime(), last?.last ? Date.parse(last.last) + gapMs : 0);
  const dueAt = (i: number) => new Date(startMs + Math.round(i * gapMs)).toISOString();

  const chunk = options.chunk ?? 500;
  for (let from = 0; from < fresh.length; from += chunk) {
    const rows = fresh.slice(from, from + chunk).map((r, i) => ({
      ...newOutboxRow(r.id, at, {
        kind: "mail",
        topic: "announcement",
        announcement_id: id,
        dedupe_key: dedupeKey(id, r.email),
      }),
      next_attempt_at: dueAt(from + i),
    }));
    const inserted = await db.transaction().execute((trx) =>
      trx
        .insertInto("outbox")
        .values(rows)
        .onConflict((oc) => oc.column("dedupe_key").where("dedupe_key", "is not", null).doNothing())
        .executeTakeFirst(),
    );
    result.newRecipients += Number(inserted.numInsertedOrUpdatedRows ?? 0);
  }
  return { ...result, firstAt: dueAt(0), lastAt: dueAt(fresh.length - 1) };
}

const refuse = (message: string): Refusal => ({ ok: false, message });

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

/** The four-eyes path (decision 136); a null actor is the terminal, which never approves. */
export function createAnnouncementDrafts(options: {
  db: Db;
  now: () => Date;
  mailer: Mailer;
  siteOrigin: string;
  linkKey: string;
  mailPerMinute: number;
  wakeMail: () => void;
  audit: (record: AuditRecord) => Promise<void>;
  managers: () => Promise<number>;
}) {
  const { db, now } = options;
  const iso = () => now().toISOString();

  const audit = (
    actor: StaffMember | null,
    action: string,
    detail: Record<string, string | number>,
  ) =>
    options.audit({
      staffId: actor?.id ?? null,
      action,
      detail: actor ? detail : { ...detail, by: "cli" },
    });

  const find = (id: string) =>
    db.selectFrom("announcement_drafts").selectAll().where("id", "=", id).executeTakeFirst();

  const emailOf = async (staffId: string | null) =>
    staffId === null
      ? null
      : ((await db.selectFrom("staff").select("email").where("id", "=", staffId).executeTakeFirst())
          ?.email ?? "a former staff member");

  /** Only if the row is still where it was read: two clicks, one winner. */
  async function move(
    draft: Draft,
    actor: StaffMember | null,
    action: DraftAction,
    acknowledged = false,
    extra: Partial<Draft> = {},
  ): Promise<{ ok: true; to: AnnouncementState } | Refusal> {
    const result = transition(draft.state, action, {
      actor: actor?.id ?? null,
      author: draft.author_id,
      managers: await options.managers(),
      needsAcknowledgement: announcementWarning(draft.subject, draft.body) !== null,
      acknowledged,
    });
    if (!result.ok) return refuse(result.reason);
    const changed = await db
      .updateTable("announcement_drafts")
      .set({ ...extra, state: result.to, updated_at: iso() })
      .where("id", "=", draft.id)
      .where("state", "=", draft.state)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) {
      return refuse("Someone else changed this announcement just now. Look at it again.");
    }
    return { ok: true, to: result.to };
  }

  async function progress(draft: Draft) {
    const rows = await db
      .selectFrom("outbox")
      .select(["status", (eb) => eb.fn.countAll().as("n")])
      .where("announcement_id", "=", draft.announcement_id)
      .groupBy("status")
      .execute();
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { sent: count("delivered"), queued: count("pending"), failed: count("dead") };
  }

  async function settle(draft: Draft): Promise<Draft> {
    // A send stopped before its last email was queued stays open, to be resumed.
    if (draft.state !== "sending" || draft.queued_at === null) return draft;
    if ((await progress(draft)).queued > 0) return draft;
    const done = await move(draft, null, "finish", false, { finished_at: iso() });
    return done.ok ? { ...draft, state: done.to } : draft;
  }

  const textOf = (input: AnnouncementInput) => ({
    subject: input.subject.trim(),
    body: input.body.trim(),
    audience: input.audience,
    announcement_id: announcementId(input.subject, input.body),
  });

  async function insert(
    input: AnnouncementInput,
    fields: Pick<Draft, "state" | "author_id"> & Partial<Draft>,
  ): Promise<string> {
    const id = timeOrderedId(now().getTime());
    await db
      .insertInto("announcement_drafts")
      .values({ id, ...textOf(input), created_at: iso(), updated_at: iso(), ...fields })
      .execute();
    return id;
  }

  function checkInput(input: AnnouncementInput): Refusal | null {
    const problem = announcementProblem(input.subject, input.body);
    if (problem) return refuse(problem);
    if (!isAudience(input.audience)) return refuse("Choose who receives it.");
    return null;
  }

  async function queue(draft: Draft, actor: StaffMember | null) {
    const moved = await move(draft, actor, "send", false, {
      sent_by: actor?.id ?? null,
      send_started_at: draft.send_started_at ?? iso(),
      queued_at: null,
    });
    if (!moved.ok) return moved;
    const result = await queueAnnouncement(db, {
      subject: draft.subject,
      body: draft.body,
      audience: draft.audience,
      now: now(),
      perMinute: options.mailPerMinute,
    });
    await db
      .updateTable("announcement_drafts")
      .set({ queued_at: iso() })
      .where("id", "=", draft.id)
      .execute();
    options.wakeMail();
    await audit(actor, "announcement-sent", {
      draft: draft.id,
      audience: draft.audience,
      queued: result.newRecipients,
    });
    return result;
  }

  const stepsFor = (draft: Draft, actor: StaffMember, managers: number): AnnouncementStep[] => {
    const steps: AnnouncementStep[] = allowedActions(draft.state).filter(
      (a): a is Exclude<DraftAction, "finish"> => a !== "finish",
    );
    const mayApprove = draft.author_id !== actor.id || managers <= 1;
    const open = ["draft", "submitted", "approved"].includes(draft.state);
    return [
      ...steps.filter((s) => s !== "approve" || mayApprove),
      ...(open ? (["test"] as const) : []),
    ];
  };

  return guardAll({
    async list(): Promise<AnnouncementSummary[]> {
      const rows = await db
        .selectFrom("announcement_drafts")
        .selectAll()
        .orderBy("created_at", "desc")
        .limit(100)
        .execute();
      const settled = await Promise.all(rows.map(settle));
      return settled.map((d) => ({
        id: d.id,
        subject: d.subject,
        audience: d.audience,
        state: d.state,
        updatedAt: d.updated_at,
      }));
    },

    async view(actor: StaffMember, id: string): Promise<AnnouncementView | null> {
      const found = await find(id);
      if (!found) return null;
      const draft = await settle(found);
      const managers = await options.managers();
      const plan = await planAnnouncement(db, draft.subject, draft.body, draft.audience);
      const email = renderAnnouncement(draft, options);
      return {
        id: draft.id,
        subject: draft.subject,
        body: draft.body,
        audience: draft.audience,
        state: draft.state,
        updatedAt: draft.updated_at,
        author: await emailOf(draft.author_id),
        writtenByYou: draft.author_id === actor.id,
        approvedBy: await emailOf(draft.approved_by),
        approvedAt: draft.approved_at,
        warning: announcementWarning(draft.subject, draft.body),
        acknowledgedBy: draft.warning_acknowledged_at
          ? ((await emailOf(draft.warning_acknowledged_by)) ?? "the command line")
          : null,
        preview: {
          subject: String(email.subject),
          html: String(email.html),
          text: String(email.text),
        },
        recipients: { fresh: plan.newRecipients, already: plan.alreadyQueued },
        progress: ["sending", "sent"].includes(draft.state) ? await progress(draft) : null,
        managers,
        steps: stepsFor(draft, actor, managers),
      };
    },

    async compose(
      actor: StaffMember,
      input: AnnouncementInput,
      id?: string,
    ): Promise<{ ok: true; id: string } | Refusal> {
      const problem = checkInput(input);
      if (problem) return problem;
      if (id !== undefined) {
        const draft = await find(id);
        if (!draft) return refuse("That announcement no longer exists.");
        // Whoever last wrote the words is their author, and so cannot approve them.
        const moved = await move(draft, actor, "edit", false, {
          ...textOf(input),
          author_id: actor.id,
          // A changed text needs the warning read again.
          warning_acknowledged_by: null,
          warning_acknowledged_at: null,
        });
        if (!moved.ok) return moved;
        await audit(actor, "announcement-edited", { draft: id });
        return { ok: true, id };
      }
      const created = await insert(input, { state: "draft", author_id: actor.id });
      await audit(actor, "announcement-composed", { draft: created });
      return { ok: true, id: created };
    },

    async step(
      actor: StaffMember,
      id: string,
      step: Exclude<AnnouncementStep, "edit">,
      acknowledged = false,
    ): Promise<{ ok: true } | Refusal> {
      const draft = await find(id);
      if (!draft) return refuse("That announcement no longer exists.");
      const at = iso();
      switch (step) {
        case "test": {
          if (!["draft", "submitted", "approved"].includes(draft.state))
            return refuse("A test can be sent only before the announcement goes out.");
          const email = renderAnnouncement(draft, options, actor.email, `test-${randomUUID()}`);
          // To the signed-in manager only, never a registrant; it counts as no sending.
          await options.mailer.send({ ...email, subject: `Test: ${draft.subject}` });
          await audit(actor, "announcement-test-sent", { draft: id });
          return { ok: true };
        }
        case "send": {
          const result = await queue(draft, actor);
          return "ok" in result ? result : { ok: true };
        }
        default: {
          const ack = acknowledged && {
            warning_acknowledged_by: actor.id,
            warning_acknowledged_at: at,
          };
          const effects: Record<typeof step, [string, Partial<Draft>]> = {
            submit: ["announcement-submitted", { submitted_at: at, ...ack }],
            approve: ["announcement-approved", { approved_by: actor.id, approved_at: at }],
            reopen: [
              "announcement-reopened",
              { approved_by: null, approved_at: null, submitted_at: null },
            ],
            withdraw: ["announcement-withdrawn", { withdrawn_at: at }],
          };
          const [action, extra] = effects[step];
          const moved = await move(draft, actor, step, acknowledged, extra);
          if (!moved.ok) return moved;
          await audit(actor, action, {
            draft: id,
            ...(step === "submit" && acknowledged ? { warning: "acknowledged" } : {}),
          });
          return { ok: true };
        }
      }
    },

    /** `registrations -- announce`: queues only what a manager approved, else submits it once. */
    async fromCli(input: AnnouncementInput & { acknowledged: boolean }) {
      const problem = checkInput(input);
      if (problem) return { kind: "refused", message: problem.message } as const;
      const drafts = await db
        .selectFrom("announcement_drafts")
        .selectAll()
        .where("announcement_id", "=", announcementId(input.subject, input.body))
        .where("audience", "=", input.audience)
        .where("state", "!=", "withdrawn")
        .orderBy("created_at", "desc")
        .execute();
      const ready = drafts.find((d) => d.state === "approved" || d.state === "sending");
      if (ready) {
        const result = await queue(ready, null);
        if ("ok" in result) return { kind: "refused", message: result.message } as const;
        return { kind: "queued", draftId: ready.id, result } as const;
      }
      const sent = drafts.find((d) => d.state === "sent");
      if (sent) return { kind: "sent", draftId: sent.id } as const;
      const waiting = drafts[0];
      if (waiting) return { kind: "waiting", draftId: waiting.id, state: waiting.state } as const;
      const warning = announcementWarning(input.subject, input.body);
      if (warning && !input.acknowledged) return { kind: "warning", ...warning } as const;
      const id = await insert(input, {
        state: "submitted",
        author_id: null,
        submitted_at: iso(),
        warning_acknowledged_at: input.acknowledged ? iso() : null,
      });
      await audit(null, "announcement-submitted", { draft: id });
      return { kind: "submitted", draftId: id } as const;
    },
  });
}

export type AnnouncementDrafts = ReturnType<typeof createAnnouncementDrafts>;
