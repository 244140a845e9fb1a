import { data } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/staff";
import {
  type Invitation,
  type Refusal,
  STAFF_ROLES,
  type StaffOutcome,
} from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field, Input } from "../../components/ui/field.tsx";
import { roleLabels, staffCopy as copy } from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import {
  EndSessionsForm,
  type SessionsEnded,
  SessionsEndedNotice,
} from "../../features/console/end-sessions-form.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations, staff } = staffServices(args);
  const [people, invitations, requests] = await Promise.all([
    operations.listStaff(),
    operations.staffInvitations(),
    operations.staffRequests(),
  ]);
  return { people, invitations, requests, me: staff.id, myEmail: staff.email };
}

const role = z.enum(STAFF_ROLES as ["viewer", "manager"]);
const id = z.string().max(100);
const change = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: z.string().max(320), role }),
  z.object({ intent: z.literal("role"), id, role }),
  z.object({ intent: z.literal("remove"), id }),
  z.object({ intent: z.literal("reset"), id }),
  z.object({ intent: z.literal("agree"), id }),
  z.object({ intent: z.literal("cancel"), id }),
]);

type Done = "pending" | "changed" | "removed" | "cancelled" | "agreed";
type Outcome =
  | { done: Done }
  | { done: "invited"; invitation: Invitation; reset: boolean }
  | { error: string; field?: "email" };

export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const form = await args.request.formData().catch(() => null);
  if (form?.get("intent") === "end-sessions") {
    const ended = await operations.endSessionsOf(String(form.get("id") ?? "").slice(0, 100));
    if (!ended.ok) return data<Outcome>({ error: ended.message }, { status: 400 });
    return data<SessionsEnded>({ sessionsEnded: ended.ended });
  }
  const parsed = change.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success)
    return data<Outcome>({ error: "That change was not understood." }, { status: 400 });
  const request = parsed.data;
  const result: StaffOutcome | Refusal =
    request.intent === "invite"
      ? await operations.inviteStaff(request.email, request.role)
      : request.intent === "role"
        ? await operations.changeRole(request.id, request.role)
        : request.intent === "remove"
          ? await operations.removeStaff(request.id)
          : request.intent === "reset"
            ? await operations.resetStaff(request.id)
            : await operations.answerStaffRequest(request.id, request.intent);
  if (!result.ok) {
    const field = request.intent === "invite" ? ("email" as const) : undefined;
    return data<Outcome>({ error: result.message, field }, { status: 400 });
  }
  if (result.pending) return data<Outcome>({ done: "pending" });
  if (result.invitation) {
    return data<Outcome>({
      done: "invited",
      invitation: result.invitation,
      reset: result.invitation.reset,
    });
  }
  const done: Record<typeof request.intent, Done> = {
    invite: "changed",
    role: "changed",
    remove: "removed",
    reset: "changed",
    agree: "agreed",
    cancel: "cancelled",
  };
  return data<Outcome>({ done: done[request.intent] });
}

export const meta: Route.MetaFunction = () => consoleMeta("Staff");

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "Never");

function Invited({ invitation, reset }: { invitation: Invitation; reset: boolean }) {
  return (
    <>
      <p className="font-semibold">{copy.invited(invitation.email, reset)}</p>
      {invitation.emailed ? (
        <p className="mt-2">{copy.emailed(invitation.email, when(invitation.expiresAt))}</p>
      ) : (
        <>
          <p className="mt-2">{copy.showLink(when(invitation.expiresAt))}</p>
          <p className="mt-2 font-semibold text-danger">{copy.linkWarning}</p>
          <p className="mt-2 font-mono text-sm break-all">{invitation.link}</p>
        </>
      )}
    </>
  );
}

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const { people, invitations, requests, me, myEmail } = loaderData;
  const outcome = actionData as Outcome | undefined;
  const error = outcome && "error" in outcome ? outcome : undefined;
  return (
    <>
      <h1 className="text-3xl">Staff</h1>
      <p className="mt-2 max-w-2xl text-ink-soft">{copy.intro}</p>
      {outcome && "done" in outcome ? (
        <div role="status" className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4">
          {outcome.done === "invited" ? (
            <Invited invitation={outcome.invitation} reset={outcome.reset} />
          ) : (
            <p className="font-semibold">{copy.done[outcome.done]}</p>
          )}
        </div>
      ) : null}
      <SessionsEndedNotice outcome={actionData} />
      {error && !error.field ? (
        <p role="alert" className="mt-6 font-semibold text-danger">
          {error.error}
        </p>
      ) : null}

      <h2 className="mt-8 text-2xl">{copy.waitingHeading}</h2>
      {requests.length === 0 ? (
        <p className="mt-2 text-ink-soft">{copy.waitingNone}</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4">
          {requests.map((r) => (
            <li key={r.id} className="rounded-card border border-line bg-surface p-4">
              <p className="font-semibold break-all">{copy.change(r)}</p>
              <p className="mt-1 text-ink-soft">
                {copy.askedBy(r.requestedBy, when(r.requestedAt), r.byYou)}
                {r.mayAgree
                  ? ""
                  : ` ${copy.cannotAgree(r.byYou ? "asked" : r.email === myEmail && r.change === "reset" ? "reset" : "group")}`}
              </p>
              <div className="mt-3 flex flex-wrap gap-4">
                {r.mayAgree ? (
                  <form method="post">
                    <input type="hidden" name="intent" value="agree" />
                    <input type="hidden" name="id" value={r.id} />
                    <Button type="submit" size="sm">
                      {copy.agree}
                      <span className="sr-only">: {copy.change(r)}</span>
                    </Button>
                  </form>
                ) : null}
                {r.byYou ? (
                  <form method="post">
                    <input type="hidden" name="intent" value="cancel" />
                    <input type="hidden" name="id" value={r.id} />
                    <Button type="submit" variant="secondary" size="sm">
                      {copy.cancel}
                      <span className="sr-only">: {copy.change(r)}</span>
                    </Button>
                  </form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-8 text-2xl">{copy.peopleHeading}</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">{copy.resetHint}</p>
      <ul className="mt-4 flex flex-col gap-4">
        {people.map((person) => (
          <li key={person.id} className="rounded-card border border-line bg-surface p-4">
            <p className="font-semibold break-all">
              {person.email}
              {person.id === me ? copy.you : ""}
            </p>
            <p className="mt-1 text-ink-soft">
              {roleLabels[person.role]}; {person.passkeys}{" "}
              {person.passkeys === 1 ? "passkey" : "passkeys"}; last signed in{" "}
              {when(person.lastSignInAt)}
            </p>
            {person.managerBy ? (
              <p className="mt-1 text-ink-soft">{copy.madeManagerAlone(person.managerBy)}</p>
            ) : null}
            <div className="mt-3 flex flex-wrap items-end gap-4">
              <form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="role" />
                <input type="hidden" name="id" value={person.id} />
                <label className="flex flex-col gap-1 text-sm font-semibold">
                  {copy.roleLabel(person.email)}
                  <select
                    name="role"
                    defaultValue={person.role}
                    className="min-h-11 rounded-control border border-line bg-surface px-3 text-base font-normal"
                  >
                    {STAFF_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {roleLabels[r]}
                      </option>
                    ))}
                  </select>
                </label>
                <Button type="submit" variant="secondary" size="sm">
                  {copy.changeRole}
                </Button>
              </form>
              <form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={person.id} />
                <Button type="submit" variant="secondary" size="sm">
                  {copy.remove} <span className="sr-only">{person.email}</span>
                </Button>
              </form>
              <EndSessionsForm id={person.id} email={person.email} />
              {person.id === me ? null : (
                <form method="post">
                  <input type="hidden" name="intent" value="reset" />
                  <input type="hidden" name="id" value={person.id} />
                  <Button type="submit" variant="secondary" size="sm">
                    {copy.reset} <span className="sr-only">{person.email}</span>
                  </Button>
                </form>
              )}
            </div>
          </li>
        ))}
      </ul>

      <h2 className="mt-8 text-2xl">{copy.invitationsHeading}</h2>
      {invitations.length === 0 ? (
        <p className="mt-2 text-ink-soft">{copy.invitationsNone}</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-2">
          {invitations.map((i) => (
            <li key={`${i.email} ${i.createdAt}`} className="break-all">
              <span className="font-semibold">{i.email}</span>:{" "}
              {copy.invitation({
                role: roleLabels[i.role],
                createdAt: when(i.createdAt),
                expiresAt: when(i.expiresAt),
                by: i.invitedBy ?? copy.commandLine,
                reset: i.reset,
              })}
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-10 text-2xl">{copy.inviteHeading}</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">{copy.inviteIntro}</p>
      <form method="post" className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="invite" />
        <Field label="Email address" error={error?.field === "email" ? error.error : undefined}>
          {(control) => (
            <Input {...control} type="email" name="email" autoComplete="off" required />
          )}
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="font-semibold">Role</legend>
          {STAFF_ROLES.map((r) => (
            <label key={r} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="role"
                value={r}
                defaultChecked={r === "viewer"}
                className="size-5"
              />
              {roleLabels[r]}
            </label>
          ))}
        </fieldset>
        <Button type="submit" className="self-start">
          Create invitation
        </Button>
      </form>
    </>
  );
}
