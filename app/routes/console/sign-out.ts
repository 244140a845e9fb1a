import { redirect } from "react-router";

import type { Route } from "./+types/sign-out";
import { consoleRoutes } from "../../../contract/console.ts";
import { requireStaff } from "../../features/console/require-staff.server.ts";

export async function action(args: Route.ActionArgs) {
  const { operations } = requireStaff(args, consoleRoutes["/console/sign-out"].act);
  return redirect("/console/sign-in", { headers: { "Set-Cookie": await operations.signOut() } });
}
