import { AsyncLocalStorage } from "node:async_hooks";

import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";

import type { Logger } from "./logger.ts";
import { absoluteForm, answerErrors, refuseMalformed } from "./malformed.ts";
import { approvedOriginHost } from "./registrations/guards.ts";
import { staticFiles } from "./static-files.ts";
import type { AppServices } from "../contract/app-services.ts";

export type AppOptions = {
  build: ServerBuild;
  /** build/client: prerendered pages and hashed assets. */
  clientDir: string;
  logger: Logger;
  /** Storage's services; the app adds `logger` (the one above) and the request's nonce. */
  services: Omit<AppServices, "nonce" | "logger">;
  trustProxy: number;
  /** Middleware run before React Router for every POST, PUT, PATCH and DELETE (the registration action). */
  registrationGuards?: RequestHandler[];
  /** Middleware run first on every request (security headers). */
  headers?: RequestHandler[];
  /** Reports whether the server can take traffic (false while draining). */
  isReady?: () => boolean;
  /** Whether storage can write now; /healthz reports it (docs/decisions/073). */
  storageHealth?: () => Promise<{ writable: boolean }>;
};

export function createApp(options: AppOptions) {
  const { build, clientDir, logger, services } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy);

  // One structured line per request: method, path without query, status, time. No bodies.
  app.use((req, res, next) => {
    // While draining, ask keep-alive clients to go, so shutdown need not wait for idle sockets.
    if (options.isReady && !options.isReady()) res.setHeader("Connection", "close");
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info(
        {
          method: req.method,
          path: req.originalUrl.split("?", 1)[0],
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - start) / 1e6,
        },
        "request",
      );
    });
    next();
  });

  app.use(absoluteForm);
  for (const h of options.headers ?? []) app.use(h);
  app.use(refuseMalformed.method);

  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (!(options.isReady?.() ?? true)) {
      res.status(503).json({ status: "draining" });
      return;
    }
    const storage = await options.storageHealth?.().catch(() => ({ writable: false }));
    if (storage && !storage.writable) {
      res.status(503).json({ status: "unavailable", storage: "cannot write" });
      return;
    }
    res.json({ status: "ok" });
  });

  // After /healthz, which old-style HTTP/1.0 health checks ask without a Host header.
  app.use(refuseMalformed.host, refuseMalformed.target);
  app.use(staticFiles(clientDir).middleware);
  // Past the prerendered files every answer is made for its request (a page with a query
  // string, a 404, a `.data` answer, a POST's answer, a refusal): a cache must ask again,
  // and keeps nothing that answers a POST, which may repeat what the person typed.
  app.use((req, res, next) => {
    if (!res.hasHeader("Cache-Control")) {
      const read = req.method === "GET" || req.method === "HEAD";
      res.setHeader("Cache-Control", read ? "no-cache" : "no-store");
    }
    next();
  });
  app.use(compression());

  // The registration action is the only one, and React Router runs it for any spelling
  // of its path (a trailing slash, "/_.data", percent-encoding) and any mutation method.
  // So the guards watch every mutation, not a list of paths that could be sidestepped.
  const mutations = new Set(["POST", "PUT", "PATCH", "DELETE"]);
  for (const guard of options.registrationGuards ?? []) {
    app.use((req, res, next) => (mutations.has(req.method) ? guard(req, res, next) : next()));
  }

  const appServicesContext = (build.entry.module as { appServicesContext?: unknown })
    .appServicesContext as Parameters<RouterContextProvider["set"]>[0] | undefined;
  if (!appServicesContext) {
    throw new Error("The server build does not export appServicesContext from entry.server");
  }

  // One origin policy (docs/decisions/068). React Router refuses an action whose Origin
  // differs from request.url's origin unless the Origin's host is in the build's
  // allowedActionOrigins. Behind a TLS proxy request.url says http:// while the browser
  // says https://, and ALLOWED_ORIGINS are other hosts, so it would refuse what our
  // origin guard accepted. The guard decides: the host it approved for this request is
  // the only one React Router is told to allow, and a request the guard did not approve
  // meets React Router's own check unchanged.
  const approvedHosts = new AsyncLocalStorage<string[]>();
  const routerBuild: ServerBuild = Object.defineProperty({ ...build }, "allowedActionOrigins", {
    get: () => approvedHosts.getStore() ?? [],
    enumerable: true,
  });
  const handleWithReactRouter = createRequestHandler({
    build: routerBuild,
    getLoadContext(_req, res) {
      const context = new RouterContextProvider();
      context.set(appServicesContext, {
        ...services,
        logger,
        nonce: String(res.locals.cspNonce ?? ""),
      });
      return context;
    },
  });
  app.all("/{*splat}", (req, res, next) => {
    const host = approvedOriginHost(res);
    if (host === undefined) return handleWithReactRouter(req, res, next);
    return approvedHosts.run([host], () => handleWithReactRouter(req, res, next));
  });

  app.use(answerErrors(logger) satisfies ErrorRequestHandler);
  return app;
}
