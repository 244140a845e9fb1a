import { redirect } from "react-router";

import type { Route } from "./+types/sign-out";
import { staffServices } from "../../features/console/access.server.ts";

export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  return redirect("/console/sign-in", { headers: { "Set-Cookie": await operations.signOut() } });
}
