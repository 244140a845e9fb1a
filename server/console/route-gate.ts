import type { Request, RequestHandler, Response } from "express";
import { matchRoutes } from "react-router";

import { refuse } from "./guards.ts";
import {
  type ConsolePath,
  type ConsoleRoute,
  consoleRoutes,
  type ConsoleServices,
  mayUse,
  type StaffMember,
} from "../../contract/console.ts";

/** Why a signed-in staff member's request was refused, as the audit trail records it. */
export type RefusalReason = "role" | "origin" | "fetch-site";

const table = Object.keys(consoleRoutes).map((path) => ({ path }));

const openOnlyFromTheConsole =
  "This page opens only from the staff console. Go to the console and open it from there.";

/** What an unknown console path is served by: the catch-all page, open to any staff member. */
const unknownRoute: ConsoleRoute = { file: "not-found.tsx", view: "viewer" };

/**
 * The row of consoleRoutes that React Router serves `pathname` from, `.data` URLs
 * included, matched as React Router matches (any letter case, escapes decoded, a trailing
 * slash); null for any other console path.
 */
export function consoleRouteOf(pathname: string): ConsolePath | null {
  const page = pathname.endsWith("/_.data")
    ? pathname.slice(0, -"_.data".length)
    : pathname.replace(/\.data$/, "");
  const path = matchRoutes(table, page)?.[0]?.route.path;
  return path === undefined ? null : (path as ConsolePath);
}

/** The path React Router reads from the request (it resolves `.` and `..` as URL does). */
export const routerPathOf = (req: Request) =>
  URL.parse(`http://console${req.originalUrl}`)?.pathname ?? req.path;

/** The methods a route answers: GET and HEAD with a loader, POST with an action. */
export function allowedMethods(route: ConsoleRoute): string[] {
  return [...(route.view ? ["GET", "HEAD"] : []), ...(route.act ? ["POST"] : [])];
}

/**
 * Whether a read of personal data came from the console itself: `Sec-Fetch-Site` is
 * `same-origin`, or `none` (typed, a bookmark), or absent (a browser without Fetch
 * Metadata). `same-site` is refused: another port or another host of the site is another
 * origin, and SameSite cookies go with it.
 */
export const fromTheConsole = (secFetchSite: string | undefined) =>
  secFetchSite === undefined || secFetchSite === "same-origin" || secFetchSite === "none";

export type GateDecision =
  | { kind: "pass" }
  | { kind: "method"; allow: string[] }
  | { kind: "fetch-site" }
  /** For React Router's console layout to answer: the sign-in page, or 401 to data. */
  | { kind: "sign-in" }
  /** For React Router's console layout to answer with its 403 page; audited first. */
  | { kind: "role" };

/**
 * Who may do what on the console, from its route table, decided once for every request
 * before React Router (docs/decisions/182): the only place roles are checked.
 */
export function gate(request: {
  route: ConsoleRoute;
  method: string;
  secFetchSite: string | undefined;
  role: StaffMember["role"] | null;
}): GateDecision {
  const { route, method, role } = request;
  const allow = allowedMethods(route);
  if (!allow.includes(method)) return { kind: "method", allow };
  const reads = method !== "POST";
  if (reads && route.personal && !fromTheConsole(request.secFetchSite)) {
    return { kind: "fetch-site" };
  }
  const needs = (reads ? route.view : route.act) ?? "manager";
  if (mayUse(role, needs)) return { kind: "pass" };
  return role === null ? { kind: "sign-in" } : { kind: "role" };
}

export type RouteGateOptions = {
  staffOf: (res: Response) => StaffMember | null;
  /** Writes a signed-in staff member's refusal to the audit trail. */
  refused: (req: Request, res: Response, reason: RefusalReason) => Promise<void>;
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
};

/** The gate's verdict that React Router's console layout answers (contract/console.ts). */
export const refusedOf = (res: Response): ConsoleServices["refused"] =>
  (res.locals.refused as ConsoleServices["refused"] | undefined) ?? null;

/**
 * Checked once where a console request enters (docs/decisions/177, 182): a method the
 * route does not answer is a plain 405; a read of a person from anywhere but the console
 * is a plain 403; no session, or a viewer on a manager's route (audited), goes on to
 * React Router with the verdict, which the console's layout answers before any route runs.
 */
export function consoleRouteGate(options: RouteGateOptions): RequestHandler {
  return (req, res, next) => {
    const path = consoleRouteOf(routerPathOf(req));
    const staff = options.staffOf(res);
    const decision = gate({
      route: path === null ? unknownRoute : consoleRoutes[path],
      method: req.method,
      secFetchSite: req.get("sec-fetch-site"),
      role: staff?.role ?? null,
    });
    if (decision.kind === "pass") return next();
    if (decision.kind === "method") {
      res.setHeader("Allow", decision.allow.join(", "));
      return refuse(req, res, 405, "This console address does not take that kind of request.");
    }
    if (decision.kind === "sign-in") {
      res.locals.refused = "sign-in";
      return next();
    }
    if (decision.kind === "fetch-site") {
      options.logger?.warn(
        { path: req.path, fetchSite: req.get("sec-fetch-site"), staffId: staff?.id ?? null },
        "console read refused: not from the console",
      );
    }
    options
      .refused(req, res, decision.kind)
      .then(() => {
        if (decision.kind === "role") {
          res.locals.refused = "role";
          return next();
        }
        refuse(req, res, 403, openOnlyFromTheConsole);
      })
      .catch(next);
  };
}
