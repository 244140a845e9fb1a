import { data } from "react-router";

import type { Route } from "./+types/enrol";
import { roleLabels } from "../../content/console.ts";
import { consoleServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PasskeyButton } from "../../features/console/passkey-button.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = consoleServices(args);
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  const invite = token ? await operations.invite(token) : null;
  if (!invite) return data({ invite: null, token: "" }, { status: 410 });
  return { invite, token };
}

export const meta: Route.MetaFunction = () => consoleMeta("Create your passkey");

export default function Enrol({ loaderData }: Route.ComponentProps) {
  const { invite, token } = loaderData;
  if (!invite) {
    return (
      <div className="max-w-xl">
        <h1 className="text-3xl">This invitation cannot be used</h1>
        <p className="mt-4 text-lg text-ink-soft">
          The link has expired (they last 24 hours) or has been used already. Ask a manager to
          invite you again.
        </p>
      </div>
    );
  }
  return (
    <div className="max-w-xl">
      <h1 className="text-3xl">Create your passkey</h1>
      <p className="mt-4 text-lg text-ink-soft">
        You have been invited as a {roleLabels[invite.role].toLowerCase()}, with the address{" "}
        {invite.email}. Create a passkey on this device to sign in: your fingerprint, face or device
        PIN. This link works once.
      </p>
      <div className="mt-6">
        <PasskeyButton kind="enrol" label="Create a passkey" invite={token} />
      </div>
    </div>
  );
}
