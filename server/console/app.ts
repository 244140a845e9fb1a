import path from "node:path";

import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Request, type RequestHandler, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";

import { consoleGuards } from "./guards.ts";
import type { StaffOperations } from "./operations.ts";
import {
  consoleRouteGate,
  consoleRouteOf,
  type RefusalReason,
  refusedOf,
  routerPathOf,
} from "./route-gate.ts";
import { sessionCookie } from "./session.ts";
import type { StaffStore } from "./store.ts";
import type { StaffMember } from "../../contract/console.ts";
import type { AppServices } from "../../contract/registrations.ts";
import {
  absoluteForm,
  answerErrors,
  contextKey,
  refuseHost,
  refuseMethod,
  refuseTarget,
  requestLog,
} from "../app.ts";
import type { Logger } from "../logger.ts";

const isConsoleRoute = (id: string) => id.startsWith("routes/console/");
const shared = new Set(["root", "routes/not-found"]);

/** The build with only the routes `keep` allows, in the server's table and the browser's. */
function withRoutes(build: ServerBuild, keep: (id: string) => boolean): ServerBuild {
  const pick = <T>(routes: Record<string, T>) =>
    Object.fromEntries(Object.entries(routes).filter(([id]) => keep(id)));
  return {
    ...build,
    routes: pick(build.routes),
    assets: { ...build.assets, routes: pick(build.assets.routes) },
  };
}

/**
 * The public listener's build: every route but the console's, so no spelling of a console
 * path (letter case, percent escapes, `.data`) can match one there (docs/decisions/133).
 */
export const publicBuild = (build: ServerBuild) => withRoutes(build, (id) => !isConsoleRoute(id));

/** The console listener's build: the console's routes, the root and the 404 page. */
export const consoleBuild = (build: ServerBuild) =>
  withRoutes(build, (id) => isConsoleRoute(id) || shared.has(id));

type RequestStaff = { staff: StaffMember | null; token?: string };

const staffOf = (res: Response): RequestStaff =>
  (res.locals.staff as RequestStaff | undefined) ?? { staff: null };

export type ConsoleAppOptions = {
  build: ServerBuild;
  clientDir: string;
  logger: Logger;
  services: Omit<AppServices, "nonce" | "logger">;
  store: StaffStore;
  operations: StaffOperations;
  consoleOrigin: string;
  trustProxy: number;
  /** securityHeaders({ console: true, ... }). */
  headers: RequestHandler[];
  storeFor?: Parameters<typeof consoleGuards>[0]["storeFor"];
  signInLimits?: Parameters<typeof consoleGuards>[0]["signInLimits"];
  isReady?: () => boolean;
};

/**
 * The staff console's Express app, for its own listener (CONSOLE_PORT): the console's
 * headers, its assets, the session of each request, the origin check and sign-in limit
 * on every post, the route table's methods, Fetch Metadata, sessions and roles
 * (route-gate.ts), then React Router over the console's routes only.
 */
export function createConsoleApp(options: ConsoleAppOptions) {
  const { logger, clientDir, build } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy);

  app.use(requestLog(logger, options.isReady, { listener: "console" }));
  app.use(absoluteForm);
  for (const h of options.headers) app.use(h);
  app.use(refuseMethod);
  app.use(refuseHost, refuseTarget);

  app.get("/", (_req, res) => res.redirect(303, "/console"));
  app.use(compression());
  app.use(
    "/assets",
    express.static(path.join(clientDir, "assets"), {
      index: false,
      redirect: false,
      cacheControl: false,
      fallthrough: false,
    }),
  );
  app.get("/favicon.svg", (_req, res) => res.sendFile(path.join(clientDir, "favicon.svg")));
  // Only the console lives here: the public site's pages, and its 404 page, are not served.
  app.use((req, res, next) => {
    if (/^\/console(?:[/.]|$)/i.test(req.path)) return next();
    res.status(404).type("text/plain").send("Not found: the staff console is at /console\n");
  });

  const cookie = sessionCookie(options.consoleOrigin);
  app.use((req, res, next) => {
    const token = cookie.read(req.get("cookie"));
    if (token === undefined) return next();
    options.store
      .resolveSession(token)
      .then((staff) => {
        res.locals.staff = { staff, token } satisfies RequestStaff;
        next();
      })
      .catch(next);
  });

  // A signed-in staff member's refusal, by route, method and reason, never an address. One
  // without a session writes only its log line: anyone could write those (decision 177).
  const refused = async (req: Request, res: Response, reason: RefusalReason) => {
    const { staff } = staffOf(res);
    if (!staff) return;
    const route = consoleRouteOf(routerPathOf(req)) ?? "another console path";
    await options.store.audit({
      staffId: staff.id,
      action: "request-refused",
      detail: { route, method: req.method, reason },
    });
  };
  for (const guard of consoleGuards({
    consoleOrigin: options.consoleOrigin,
    staffOf: (res) => staffOf(res).staff,
    refused,
    storeFor: options.storeFor,
    signInLimits: options.signInLimits,
    logger,
  })) {
    app.use(guard);
  }
  app.use(consoleRouteGate({ staffOf: (res) => staffOf(res).staff, refused, logger }));

  const appServicesContext = contextKey(build, "appServicesContext");
  const consoleServicesContext = contextKey(build, "consoleServicesContext");
  // The origin guard above has already required Origin to be exactly the console's.
  const routerBuild: ServerBuild = {
    ...consoleBuild(build),
    allowedActionOrigins: [new URL(options.consoleOrigin).host],
  };
  const handle = createRequestHandler({
    build: routerBuild,
    getLoadContext(req, res) {
      const { staff, token } = staffOf(res);
      const context = new RouterContextProvider();
      context.set(appServicesContext, {
        ...options.services,
        logger,
        nonce: String(res.locals.cspNonce ?? ""),
      });
      context.set(consoleServicesContext, {
        staff,
        operations: options.operations.forRequest(staff, token),
        answersData:
          req.path.endsWith(".data") || (req.get("accept") ?? "").includes("application/json"),
        refused: refusedOf(res),
      });
      return context;
    },
  });
  app.all("/{*splat}", (req, res, next) => handle(req, res, next));

  app.use(answerErrors(logger));
  return app;
}
