import { data } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/staff";
import { consoleRoutes, STAFF_ROLES } from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field, Input } from "../../components/ui/field.tsx";
import { roleLabels } from "../../content/console.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { requireStaff } from "../../features/console/require-staff.server.ts";

const access = consoleRoutes["/console/staff"];

export async function loader(args: Route.LoaderArgs) {
  const { operations, staff } = requireStaff(args, access.view);
  return { people: await operations.listStaff(), me: staff.id };
}

const role = z.enum(STAFF_ROLES as ["viewer", "manager"]);
const change = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: z.string().max(320), role }),
  z.object({ intent: z.literal("role"), id: z.string().max(100), role }),
  z.object({ intent: z.literal("remove"), id: z.string().max(100) }),
]);

type Outcome =
  | { done: "invited"; link: string; email: string; expiresAt: string; emailed: boolean }
  | { done: "changed" | "removed" }
  | { error: string; field?: "email" };

export async function action(args: Route.ActionArgs) {
  const { operations } = requireStaff(args, access.act);
  const form = await args.request.formData().catch(() => null);
  const parsed = change.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success)
    return data<Outcome>({ error: "That change was not understood." }, { status: 400 });
  const request = parsed.data;
  if (request.intent === "invite") {
    const result = await operations.inviteStaff(request.email, request.role);
    if (!result.ok)
      return data<Outcome>({ error: result.message, field: "email" }, { status: 400 });
    return data<Outcome>({
      done: "invited",
      link: result.link,
      email: request.email.trim().toLowerCase(),
      expiresAt: result.expiresAt,
      emailed: result.emailed,
    });
  }
  const result =
    request.intent === "role"
      ? await operations.changeRole(request.id, request.role)
      : await operations.removeStaff(request.id);
  if (!result.ok) return data<Outcome>({ error: result.message }, { status: 400 });
  return data<Outcome>({ done: request.intent === "role" ? "changed" : "removed" });
}

export const meta: Route.MetaFunction = () => consoleMeta("Staff");

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "Never");

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const { people, me } = loaderData;
  const outcome = actionData as Outcome | undefined;
  const error = outcome && "error" in outcome ? outcome : undefined;
  return (
    <>
      <h1 className="text-3xl">Staff</h1>
      {outcome && "done" in outcome ? (
        <div role="status" className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4">
          {outcome.done === "invited" ? (
            <>
              <p className="font-semibold">
                Invitation for {outcome.email} created
                {outcome.emailed ? " and emailed" : ""}.
              </p>
              <p className="mt-2">
                {outcome.emailed
                  ? "The link, in case the email does not arrive"
                  : "Send them this link"}
                . It works once, until {when(outcome.expiresAt)} UTC:
              </p>
              <p className="mt-2 font-mono text-sm break-all">{outcome.link}</p>
            </>
          ) : (
            <p className="font-semibold">
              {outcome.done === "changed"
                ? "The role was changed."
                : "The person was removed: their sessions have ended."}
            </p>
          )}
        </div>
      ) : null}
      {error && !error.field ? (
        <p role="alert" className="mt-6 font-semibold text-danger">
          {error.error}
        </p>
      ) : null}

      <h2 className="mt-8 text-2xl">People</h2>
      <ul className="mt-4 flex flex-col gap-4">
        {people.map((person) => (
          <li key={person.id} className="rounded-card border border-line bg-surface p-4">
            <p className="font-semibold break-all">
              {person.email}
              {person.id === me ? " (you)" : ""}
            </p>
            <p className="mt-1 text-ink-soft">
              {roleLabels[person.role]}; {person.passkeys}{" "}
              {person.passkeys === 1 ? "passkey" : "passkeys"}; last signed in{" "}
              {when(person.lastSignInAt)}
            </p>
            <div className="mt-3 flex flex-wrap items-end gap-4">
              <form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="role" />
                <input type="hidden" name="id" value={person.id} />
                <label className="flex flex-col gap-1 text-sm font-semibold">
                  Role of {person.email}
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
                  Change role
                </Button>
              </form>
              <form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={person.id} />
                <Button type="submit" variant="secondary" size="sm">
                  Remove <span className="sr-only">{person.email}</span>
                </Button>
              </form>
            </div>
          </li>
        ))}
      </ul>

      <h2 className="mt-10 text-2xl">Invite someone</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">
        A viewer sees only figures. A manager also looks people up, exports, erases, sends
        announcements and manages staff. The link works once, for 24 hours.
      </p>
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
