import type { Route } from "./+types/overview";
import { consoleRoutes } from "../../../contract/console.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { requireStaff } from "../../features/console/require-staff.server.ts";

export function loader(args: Route.LoaderArgs) {
  requireStaff(args, consoleRoutes["/console"].view);
  return null;
}

export const meta: Route.MetaFunction = () => consoleMeta("Overview");

/** The waiting list at a glance (issue 31, point 4): the next piece of work fills it. */
export default function Overview() {
  return (
    <>
      <h1 className="text-3xl">Overview</h1>
      <p className="mt-4 text-lg text-ink-soft">The overview comes here.</p>
    </>
  );
}
