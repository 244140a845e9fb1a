import { redirect } from "react-router";

import type { Route } from "./+types/sign-in";
import { consoleServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PasskeyButton } from "../../features/console/passkey-button.tsx";

export function loader(args: Route.LoaderArgs) {
  const { staff } = consoleServices(args);
  if (staff) throw redirect("/console");
  return null;
}

export const meta: Route.MetaFunction = () => consoleMeta("Sign in");

export default function SignIn() {
  return (
    <div className="max-w-xl">
      <h1 className="text-3xl">Sign in</h1>
      <p className="mt-4 text-lg text-ink-soft">
        Staff sign in with a passkey: your fingerprint, face or device PIN. There are no passwords.
        New staff get an invitation link from a manager.
      </p>
      <div className="mt-6">
        <PasskeyButton kind="sign-in" label="Sign in with a passkey" />
      </div>
    </div>
  );
}
