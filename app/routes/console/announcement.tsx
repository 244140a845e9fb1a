import { data, redirect } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/announcement";
import type { AnnouncementStep } from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import {
  announcementAudiences,
  announcementStates,
  announcementWarningWords,
  approvedAloneWords,
} from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { AnnouncementForm, announcementFields } from "../../features/console/announcement-form.tsx";
import { consoleMeta } from "../../features/console/console-shell.tsx";

const idOf = (request: Request) => new URL(request.url).searchParams.get("id") ?? "";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const url = new URL(args.request.url);
  const announcement = await operations.announcement(idOf(args.request));
  if (!announcement) throw data("No such announcement.", { status: 404 });
  return { announcement, done: url.searchParams.get("done") };
}

const request = z.discriminatedUnion("intent", [
  announcementFields.extend({ intent: z.literal("edit") }),
  z.object({
    intent: z.enum(["submit", "reopen", "approve", "send", "withdraw", "test"]),
    acknowledged: z.literal("yes").optional(),
    version: z.string().max(100).optional(),
  }),
]);

export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const id = idOf(args.request);
  const form = await args.request.formData().catch(() => null);
  const parsed = request.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data({ error: "That step was not understood." }, 400);
  const step = parsed.data;
  const result =
    step.intent === "edit"
      ? await operations.composeAnnouncement(
          { subject: step.subject, body: step.body, audience: step.audience },
          id,
        )
      : await operations.announcementStep(id, step.intent, {
          acknowledged: step.acknowledged === "yes",
          version: step.version,
        });
  if (!result.ok) return data({ error: result.message }, 400);
  throw redirect(
    `/console/announcements/draft?id=${encodeURIComponent(id)}&done=${step.intent}`,
    303,
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  consoleMeta(loaderData ? `Announcement: ${loaderData.announcement.subject}` : "Announcement");

const doneWords: Record<string, string> = {
  edit: "Your changes are saved.",
  submit: "Submitted for approval.",
  reopen: "It is a draft again: change it, then submit it for approval again.",
  approve: "Approved. It can now be sent.",
  send: "Sending has started.",
  withdraw: "Withdrawn. It will not be sent.",
  test: "A test was sent to your own address only. It does not count as sending.",
};

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "");

const people = (n: number) => `${n} ${n === 1 ? "person" : "people"}`;

/** One step's form; `version` binds it to the words shown, `acknowledge` adds the warning's box. */
function StepButton({
  intent,
  label,
  variant = "secondary",
  version,
  acknowledge,
}: {
  intent: AnnouncementStep;
  label: string;
  variant?: "primary" | "secondary";
  version?: string;
  acknowledge?: string | null;
}) {
  return (
    <form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      {version ? <input type="hidden" name="version" value={version} /> : null}
      {acknowledge ? (
        <label className="flex min-h-11 max-w-xl items-center gap-3">
          <input
            type="checkbox"
            name="acknowledged"
            value="yes"
            required
            className="size-5 shrink-0"
          />
          {acknowledge}
        </label>
      ) : null}
      <Button type="submit" variant={variant} className="self-start">
        {label}
      </Button>
    </form>
  );
}

export default function Announcement({ loaderData, actionData }: Route.ComponentProps) {
  const { announcement: a, done } = loaderData;
  const can = (step: AnnouncementStep) => a.steps.includes(step);
  const error = actionData?.error;
  const aloneApproving = a.writtenByYou && a.otherApprovers === 0;
  return (
    <>
      <p>
        <a
          href="/console/announcements"
          className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
        >
          All announcements
        </a>
      </p>
      <h1 className="mt-2 text-3xl break-words">{a.subject}</h1>
      <p className="mt-2 text-lg font-semibold">{announcementStates[a.state]}</p>

      {done && doneWords[done] ? (
        <p role="status" className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4">
          {doneWords[done]}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-6 font-semibold text-danger">
          {error}
        </p>
      ) : null}

      <dl className="mt-6 grid max-w-3xl gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold">Who receives it</dt>
        <dd>{announcementAudiences[a.audience]}</dd>
        <dt className="font-semibold">Recipients</dt>
        <dd>
          {a.progress
            ? `${people(a.recipients.already)} queued or sent`
            : `${people(a.recipients.fresh)} would receive it now`}
          {!a.progress && a.recipients.already > 0
            ? ` (${people(a.recipients.already)} had it already)`
            : ""}
        </dd>
        <dt className="font-semibold">Written by</dt>
        <dd className="break-all">
          {a.writtenByYou ? "You" : (a.author ?? "The command line (npm run registrations)")}
        </dd>
        {a.approvedBy ? (
          <>
            <dt className="font-semibold">Approved by</dt>
            <dd className="break-all">
              {a.approvedBy} at {when(a.approvedAt)}
            </dd>
            {a.approvedAlone ? (
              <>
                <dt className="font-semibold">Four eyes</dt>
                <dd>{approvedAloneWords}: no other manager could approve it.</dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>

      {a.progress ? (
        <section aria-labelledby="progress" className="mt-8">
          <h2 id="progress" className="text-2xl">
            Progress
          </h2>
          <dl className="mt-4 grid max-w-md grid-cols-[1fr_max-content] gap-x-6 gap-y-2 text-lg">
            <dt>Sent</dt>
            <dd className="font-semibold">{a.progress.sent}</dd>
            <dt>Waiting to be sent</dt>
            <dd className="font-semibold">{a.progress.queued}</dd>
            <dt>Failed</dt>
            <dd className="font-semibold">{a.progress.failed}</dd>
            {a.progress.queued > 0 ? (
              <>
                <dt>Sent in the last minute</dt>
                <dd className="font-semibold">{a.progress.perMinute}</dd>
                <dt>Should be done</dt>
                <dd className="font-semibold">
                  {a.progress.finishAt
                    ? `${when(a.progress.finishAt)} (in ${a.progress.finishIn})`
                    : "Not known: none sent in the last minute"}
                </dd>
              </>
            ) : null}
          </dl>
          {a.progress.slowedDown ? (
            <p className="mt-4 font-semibold">
              The mail server asked us to slow down. Sending pauses for a minute, then goes on more
              slowly until the server accepts our pace again; nothing is lost.
            </p>
          ) : null}
          {a.state === "sending" ? (
            <p className="mt-4">
              Emails go out at a steady pace, so the mail provider accepts them.{" "}
              <a
                href={`/console/announcements/draft?id=${encodeURIComponent(a.id)}`}
                className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
              >
                Refresh the figures
              </a>
            </p>
          ) : null}
        </section>
      ) : null}

      {a.warning ? (
        <section
          aria-labelledby="warning"
          className="mt-8 max-w-3xl rounded-card border-2 border-danger p-4"
        >
          <h2 id="warning" className="text-xl">
            {announcementWarningWords.title}
          </h2>
          <p className="mt-2 font-semibold">{announcementWarningWords.found(a.warning)}</p>
          <p className="mt-2">{announcementWarningWords.text}</p>
          {a.acknowledgedBy ? (
            <p className="mt-2 break-words">
              Acknowledged by {a.acknowledgedBy} when submitting it.
            </p>
          ) : null}
          {a.approvalAcknowledged && a.approvedBy ? (
            <p className="mt-2 break-words">Acknowledged by {a.approvedBy} when approving it.</p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="next" className="mt-8">
        <h2 id="next" className="text-2xl">
          What happens next
        </h2>
        {a.state === "submitted" && !can("approve") ? (
          <p className="mt-2 max-w-2xl">
            {a.writtenByYou
              ? "You wrote it, so another manager must approve it. They will find it under Announcements."
              : "You or its author was made a manager by the other alone, so the console cannot tell you apart: another manager must approve it."}
          </p>
        ) : null}
        {can("approve") && aloneApproving ? (
          <p className="mt-2 max-w-2xl font-semibold">
            No other manager can approve it, so you may approve your own announcement: a second,
            separate step, shown as approved by its author alone. Read the preview again before you
            approve it.
          </p>
        ) : null}
        {can("send") ? (
          <p className="mt-2 max-w-2xl">
            Sending emails {people(a.recipients.fresh)}. It cannot be stopped once it has started.
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap items-start gap-4">
          {can("submit") ? (
            <StepButton
              intent="submit"
              label="Submit for approval"
              variant="primary"
              version={a.version}
              acknowledge={a.warning && announcementWarningWords.acknowledge}
            />
          ) : null}
          {can("approve") ? (
            <StepButton
              intent="approve"
              label="Approve"
              variant="primary"
              version={a.version}
              acknowledge={a.warning && announcementWarningWords.acknowledgeApproval}
            />
          ) : null}
          {can("send") ? (
            <StepButton
              intent="send"
              label={a.state === "sending" ? "Send to anyone still missing" : "Send now"}
              variant="primary"
              version={a.version}
            />
          ) : null}
          {can("test") ? <StepButton intent="test" label="Send a test to me" /> : null}
          {can("reopen") ? <StepButton intent="reopen" label="Back to draft" /> : null}
          {can("withdraw") ? <StepButton intent="withdraw" label="Withdraw" /> : null}
        </div>
      </section>

      <section aria-labelledby="preview" className="mt-10">
        <h2 id="preview" className="text-2xl">
          Preview
        </h2>
        <p className="mt-2 max-w-2xl text-ink-soft">
          Exactly as it will arrive, except that each person is greeted by their own name.
        </p>
        <p className="mt-4">
          <span className="font-semibold">Subject:</span>{" "}
          <span className="break-words">{a.preview.subject}</span>
        </p>
        <h3 className="mt-4 text-xl">As most people will see it</h3>
        <iframe
          title="The email as most people will see it"
          srcDoc={a.preview.html}
          sandbox=""
          className="mt-2 h-[32rem] w-full max-w-3xl rounded-card border border-line bg-white"
        />
        <h3 className="mt-6 text-xl">As plain text</h3>
        <pre className="mt-2 max-w-3xl rounded-card border border-line bg-surface p-4 font-sans text-base wrap-anywhere whitespace-pre-wrap">
          {a.preview.text}
        </pre>
      </section>

      {can("edit") ? (
        <section aria-labelledby="change" className="mt-10">
          <h2 id="change" className="text-2xl">
            Change it
          </h2>
          <AnnouncementForm
            intent="edit"
            submitLabel="Save changes"
            values={{ subject: a.subject, body: a.body, audience: a.audience }}
          />
        </section>
      ) : null}
    </>
  );
}
