import { data, redirect, type RouterContextProvider } from "react-router";

import {
  type Access,
  type ConsoleServices,
  consoleServicesContext,
  type StaffMember,
} from "../../../contract/console.ts";

type Args = { context: Readonly<RouterContextProvider>; request: Request };

/**
 * The gate of every console loader and action (docs/decisions/133), given the route's
 * entry of `consoleRoutes`. No session: a document goes to the sign-in page, a `.data` or
 * JSON request gets 401. A viewer on a manager's route gets 403 and nothing runs.
 */
export function requireStaff(
  args: Args,
  access: "viewer" | "manager",
): ConsoleServices & { staff: StaffMember };
export function requireStaff(args: Args, access: Access): ConsoleServices;
export function requireStaff({ context }: Args, access: Access): ConsoleServices {
  const services = context.get(consoleServicesContext);
  // Only the console listener sets it; its routes are not in the public listener's build.
  if (!services) throw data("Not found", { status: 404 });
  if (access === "public") return services;
  if (!services.staff) {
    if (services.answersData) throw data({ ok: false, message: "Sign in first." }, { status: 401 });
    throw redirect("/console/sign-in");
  }
  if (access === "manager" && services.staff.role !== "manager") {
    throw data("Only managers can use this page.", { status: 403 });
  }
  return services;
}
