import { data } from "react-router";

import type { Route } from "./+types/not-found";
import { requireStaff } from "../../features/console/require-staff.server.ts";

/** Unknown console paths: the sign-in page first, then the console's own 404. */
export function loader(args: Route.LoaderArgs) {
  requireStaff(args, "viewer");
  throw data("Not found", { status: 404 });
}

export default function ConsoleNotFound() {
  return null;
}
