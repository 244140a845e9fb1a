import { data, redirect } from "react-router";

import type { Route } from "./+types/announcements";
import type { AnnouncementInput } from "../../../contract/console.ts";
import {
  announcementAudiences,
  announcementStates,
  approvedAloneWords,
} from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { AnnouncementForm, announcementFields } from "../../features/console/announcement-form.tsx";
import { consoleMeta } from "../../features/console/console-shell.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  return { announcements: await operations.announcements() };
}

type Outcome = { error: string; values?: AnnouncementInput };

export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const form = await args.request.formData().catch(() => null);
  const parsed = announcementFields.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) {
    return data<Outcome>(
      { error: "Fill in the subject and the text, and choose who receives it." },
      400,
    );
  }
  const result = await operations.composeAnnouncement(parsed.data);
  if (!result.ok) return data<Outcome>({ error: result.message, values: parsed.data }, 400);
  throw redirect(`/console/announcements/draft?id=${encodeURIComponent(result.id)}`, 303);
}

export const meta: Route.MetaFunction = () => consoleMeta("Announcements");

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

export default function Announcements({ loaderData, actionData }: Route.ComponentProps) {
  const { announcements } = loaderData;
  const outcome = actionData as Outcome | undefined;
  return (
    <>
      <h1 className="text-3xl">Announcements</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">
        Emails to the waiting list. Write one, look at it exactly as it will arrive, send yourself a
        test, then submit it: a second manager approves it before it can be sent. Nobody receives an
        announcement twice, and nobody who unsubscribed or was erased receives it.
      </p>

      <h2 className="mt-8 text-2xl">Announcements so far</h2>
      {announcements.length === 0 ? (
        <p className="mt-4">None yet.</p>
      ) : (
        <ul className="mt-4 flex max-w-3xl flex-col divide-y divide-line border-y border-line">
          {announcements.map((a) => (
            <li key={a.id} className="flex flex-col gap-1 py-3">
              <a
                href={`/console/announcements/draft?id=${encodeURIComponent(a.id)}`}
                className="inline-flex min-h-11 items-center font-semibold break-words text-brand-800 underline underline-offset-4"
              >
                {a.subject}
              </a>
              <span className="text-sm text-ink-soft">
                {announcementStates[a.state]}
                {a.approvedAlone ? ` · ${approvedAloneWords}` : ""} ·{" "}
                {announcementAudiences[a.audience]} · last changed {when(a.updatedAt)} UTC
              </span>
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-10 text-2xl">Write an announcement</h2>
      <AnnouncementForm
        submitLabel="Save and preview"
        error={outcome?.error}
        values={outcome?.values}
      />
    </>
  );
}
