import type { Route } from "./+types/passkeys";
import { consoleRoutes } from "../../../contract/console.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PasskeyButton } from "../../features/console/passkey-button.tsx";
import { requireStaff } from "../../features/console/require-staff.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = requireStaff(args, consoleRoutes["/console/passkeys"].view);
  return { passkeys: await operations.myPasskeys() };
}

export const meta: Route.MetaFunction = () => consoleMeta("My passkeys");

const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "Never");

export default function Passkeys({ loaderData }: Route.ComponentProps) {
  const { passkeys } = loaderData;
  return (
    <>
      <h1 className="text-3xl">My passkeys</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">
        Add a second passkey (another phone, laptop or security key) so that losing one device does
        not lock you out.
      </p>
      <div className="mt-6 overflow-x-auto">
        <table className="w-full max-w-2xl text-left">
          <caption className="sr-only">Your passkeys</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-4">
                Passkey
              </th>
              <th scope="col" className="py-2 pr-4">
                Added (UTC)
              </th>
              <th scope="col" className="py-2">
                Last used (UTC)
              </th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((p, i) => (
              <tr key={p.createdAt + String(i)} className="border-b border-line">
                <td className="py-2 pr-4">{i + 1}</td>
                <td className="py-2 pr-4">{day(p.createdAt)}</td>
                <td className="py-2">{day(p.lastUsedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 className="mt-8 text-2xl">Add a passkey</h2>
      <div className="mt-4">
        <PasskeyButton kind="add" label="Add a passkey" />
      </div>
    </>
  );
}
