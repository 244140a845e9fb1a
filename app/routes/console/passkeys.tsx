import { data, redirect } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/passkeys";
import { Button } from "../../components/ui/button.tsx";
import { passkeyTransports } from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PasskeyButton } from "../../features/console/passkey-button.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const [passkeys, sessions, confirmedUntil] = await Promise.all([
    operations.myPasskeys(),
    operations.mySessions(),
    operations.confirmedUntil(),
  ]);
  return { passkeys, sessions, confirmedUntil };
}

const change = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("remove"),
    // A credential id is at most 1,023 bytes, in base64url.
    id: z.string().min(1).max(1400),
    "confirm-last": z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("end-session"), id: z.string().regex(/^[0-9a-f]{16}$/) }),
  z.object({ intent: z.literal("end-others") }),
]);

type Outcome = { done: "removed" } | { done: "ended"; ended: number } | { error: string };

/**
 * Removing a passkey and ending sessions (docs/decisions/178): the operations refuse with
 * 403 until this session has confirmed its person with a passkey in the last 5 minutes.
 * Removing the last passkey ends every session, this one too.
 */
export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const form = await args.request.formData().catch(() => null);
  const parsed = change.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success)
    return data<Outcome>({ error: "That change was not understood." }, { status: 400 });
  const request = parsed.data;
  if (request.intent === "remove") {
    const result = await operations.removePasskey(request.id, request["confirm-last"] === "yes");
    if (!result.ok) return refused(result);
    if (result.signedOut)
      throw redirect("/console/sign-in", { headers: { "Set-Cookie": result.signedOut } });
    return data<Outcome>({ done: "removed" });
  }
  const result = await operations.endMySessions(
    request.intent === "end-session" ? request.id : undefined,
  );
  if (!result.ok) return refused(result);
  return data<Outcome>({ done: "ended", ended: result.ended });
}

const refused = (refusal: { message: string }) =>
  data<Outcome>({ error: refusal.message }, { status: "confirmFirst" in refusal ? 403 : 400 });

export const meta: Route.MetaFunction = () => consoleMeta("My passkeys");

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "Never");

const kindOf = (transports: string[]) =>
  transports.map((t) => passkeyTransports[t] ?? t).join(", ") || "Not known";

export default function Passkeys({ loaderData, actionData }: Route.ComponentProps) {
  const { passkeys, sessions, confirmedUntil } = loaderData;
  const outcome = actionData as Outcome | undefined;
  const others = sessions.filter((s) => !s.current);
  const only = passkeys.length === 1 ? passkeys[0] : undefined;
  return (
    <>
      <h1 className="text-3xl">My passkeys</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">
        Add a second passkey (another phone, laptop or security key) so that losing one device does
        not lock you out.
      </p>
      {outcome && "done" in outcome ? (
        <p role="status" className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4">
          {outcome.done === "removed"
            ? "The passkey was removed."
            : outcome.ended === 1
              ? "1 session was ended."
              : `${outcome.ended} sessions were ended.`}
        </p>
      ) : null}
      {outcome && "error" in outcome ? (
        <p role="alert" className="mt-6 font-semibold text-danger">
          {outcome.error}
        </p>
      ) : null}
      <p className="mt-6 max-w-2xl">
        {confirmedUntil
          ? `You confirmed it is you with a passkey: until ${when(confirmedUntil)} UTC you can add or remove passkeys and end sessions without being asked again.`
          : "Adding or removing a passkey, or ending a session, first asks you to confirm it is you with one of your passkeys. That lasts 5 minutes."}
      </p>
      <p data-confirm-status role="status" className="mt-2 text-base text-ink-soft" />

      <div className="mt-6 overflow-x-auto">
        <table className="w-full max-w-3xl text-left">
          <caption className="sr-only">Your passkeys</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-4">
                Passkey
              </th>
              <th scope="col" className="py-2 pr-4">
                Kind
              </th>
              <th scope="col" className="py-2 pr-4">
                Added (UTC)
              </th>
              <th scope="col" className="py-2 pr-4">
                Last used (UTC)
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((p, i) => (
              <tr key={p.id} className="border-b border-line">
                <td className="py-2 pr-4">Passkey {i + 1}</td>
                <td className="py-2 pr-4">{kindOf(p.transports)}</td>
                <td className="py-2 pr-4">{when(p.createdAt)}</td>
                <td className="py-2 pr-4">{when(p.lastUsedAt)}</td>
                <td className="py-2">
                  {only ? null : (
                    <form method="post" data-passkey-confirm>
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="id" value={p.id} />
                      <Button type="submit" variant="secondary" size="sm">
                        Remove <span className="sr-only">passkey {i + 1}</span>
                      </Button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {only ? (
        <details className="mt-6 max-w-2xl rounded-card border border-line p-4">
          <summary className="cursor-pointer font-semibold">Remove your only passkey</summary>
          <form method="post" data-passkey-confirm className="mt-4 flex flex-col gap-4">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="id" value={only.id} />
            <p className="font-semibold text-danger">
              This is your only passkey. Without it you cannot sign in again until a manager invites
              you again, and every session of yours, this one too, ends now.
            </p>
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                name="confirm-last"
                value="yes"
                required
                className="mt-1 size-5"
              />
              I understand that I will not be able to sign in again
            </label>
            <Button type="submit" variant="secondary" className="self-start">
              Remove my only passkey
            </Button>
          </form>
        </details>
      ) : null}

      <h2 className="mt-8 text-2xl">Add a passkey</h2>
      <div className="mt-4">
        <PasskeyButton kind="add" label="Add a passkey" />
      </div>

      <h2 className="mt-10 text-2xl">Where you are signed in</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">
        Each sign-in is a session. A session ends after 30 minutes without use, or 12 hours after
        signing in. End any you do not recognise.
      </p>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full max-w-3xl text-left">
          <caption className="sr-only">Your sessions</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-4">
                Signed in (UTC)
              </th>
              <th scope="col" className="py-2 pr-4">
                Last seen (UTC)
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">End</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} className="border-b border-line">
                <td className="py-2 pr-4">{when(s.createdAt)}</td>
                <td className="py-2 pr-4">{when(s.lastSeenAt)}</td>
                <td className="py-2">
                  {s.current ? (
                    <span className="font-semibold">This session</span>
                  ) : (
                    <form method="post" data-passkey-confirm>
                      <input type="hidden" name="intent" value="end-session" />
                      <input type="hidden" name="id" value={s.id} />
                      <Button type="submit" variant="secondary" size="sm">
                        End{" "}
                        <span className="sr-only">
                          the session signed in at {when(s.createdAt)}
                        </span>
                      </Button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {others.length > 1 ? (
        <form method="post" data-passkey-confirm className="mt-4">
          <input type="hidden" name="intent" value="end-others" />
          <Button type="submit" variant="secondary">
            End every other session
          </Button>
        </form>
      ) : null}
    </>
  );
}
