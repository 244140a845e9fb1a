import { data, type MiddlewareFunction, redirect, type RouterContextProvider } from "react-router";

import {
  type ConsoleServices,
  consoleServicesContext,
  type StaffMember,
} from "../../../contract/console.ts";

type Args = { context: Readonly<RouterContextProvider> };

/** This request's console services, on a route open to anyone. */
export function consoleServices({ context }: Args): ConsoleServices {
  const services = context.get(consoleServicesContext);
  // Only the console listener sets it; its routes are not in the public listener's build.
  if (!services) throw data("Not found", { status: 404 });
  return services;
}

/**
 * The console layout's middleware (docs/decisions/182): it answers the console gate's
 * verdict, taken from the route table before React Router (server/console/route-gate.ts),
 * before any route's loader or action runs. Without a session a document goes to the
 * sign-in page and a `.data` or JSON request gets 401; a viewer on a manager's route, 403.
 */
export const consoleAccess: MiddlewareFunction<Response> = (args, next) => {
  const { refused, answersData, staff } = consoleServices(args);
  if (refused === "sign-in") {
    if (answersData) throw data({ ok: false, message: "Sign in first." }, { status: 401 });
    throw redirect("/console/sign-in");
  }
  if (refused === "role") {
    // No loader runs after a refusal here, the layout's neither, so a page's 403 takes who
    // is signed in for its frame from the refusal; a download's 403 is its words alone.
    const refusal = {
      staff: staff && { email: staff.email, role: staff.role },
      toJSON: () => "Only managers can use this page.",
    };
    throw data(refusal, { status: 403 });
  }
  return next();
};

/** This request's console services on a staff route, which the gate opens only with a session. */
export function staffServices(args: Args): ConsoleServices & { staff: StaffMember } {
  const services = consoleServices(args);
  if (!services.staff) throw new Error("A staff route ran without a session.");
  return { ...services, staff: services.staff };
}
