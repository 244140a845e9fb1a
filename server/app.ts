import { AsyncLocalStorage } from "node:async_hooks";
import { readdirSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";

import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, {
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import expressStaticGzip from "express-static-gzip";
import { RouterContextProvider, type ServerBuild } from "react-router";

import type { Logger } from "./logger.ts";
import type { AppServices } from "../contract/registrations.ts";

type AppOptions = {
  build: ServerBuild;
  clientDir: string;
  logger: Logger;
  /** The app adds `logger` (the one above) and the request's nonce. */
  services: Omit<AppServices, "nonce" | "logger">;
  trustProxy: number;
  registrationGuards?: RequestHandler[];
  headers?: RequestHandler[];
  isReady?: () => boolean;
  storageHealth?: () => Promise<{ writable: boolean }>;
};

/** Pages (GET, HEAD), the registration form (POST), OPTIONS (decision 074). */
const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
const ALLOW = [...ALLOWED_METHODS].join(", ");

function plain(res: Response, status: number, message?: string) {
  res.setHeader("Cache-Control", "no-store");
  res
    .status(status)
    .type("text/plain; charset=utf-8")
    .send(`${message ?? STATUS_CODES[status] ?? "Error"}\n`);
}

function isUsableHost(value: string | undefined): boolean {
  if (!value || /[\s/?#@\\]/.test(value)) return false;
  return Boolean(URL.parse(`http://${value}/`)?.host);
}

/** RFC 9112 3.2.2 (decision 131); before the security headers, so that they see the path. */
export const absoluteForm: RequestHandler = (req, _res, next) => {
  const url = req.url.startsWith("/") ? null : URL.parse(req.url);
  if (url?.protocol === "http:" || url?.protocol === "https:") {
    req.url = req.originalUrl = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
  }
  next();
};

// React Router's WHATWG Request throws for TRACE, CONNECT, TRACK and a garbled Host (074, 131).
export const refuseMethod: RequestHandler = (req, res, next) => {
  if (req.method !== "OPTIONS" && ALLOWED_METHODS.has(req.method)) return next();
  res.setHeader("Allow", ALLOW);
  if (req.method !== "OPTIONS") return plain(res, 405);
  res.setHeader("Cache-Control", "no-store");
  res.status(204).end();
};

export const refuseHost: RequestHandler = (req, res, next) => {
  // RFC 9112 3.2; Node keeps only the first of several.
  if ((req.headersDistinct.host?.length ?? 0) > 1)
    return plain(res, 400, "Bad Request: more than one Host header");
  // HTTP/1.1 requires Host (Node refuses its absence there); HTTP/1.0 may omit it.
  if (!isUsableHost(req.get("host"))) return plain(res, 400, "Bad Request: no usable Host header");
  const forwarded = req.app.enabled("trust proxy") ? req.get("x-forwarded-host") : undefined;
  if (forwarded !== undefined && !forwarded.split(",").every((h) => isUsableHost(h.trim()))) {
    return plain(res, 400, "Bad Request: no usable X-Forwarded-Host header");
  }
  next();
};

// Refused once here ("/%c0%ae"), not by whichever part decodes it first.
export const refuseTarget: RequestHandler = (req, res, next) => {
  if (!req.url.startsWith("/")) return plain(res, 400, "Bad Request: unusable request target");
  try {
    decodeURIComponent(req.path);
  } catch (error) {
    return next(Object.assign(error as Error, { status: 400 }));
  }
  next();
};

/** Prerendered HTML at its clean path and .br/.gz twins; with a query, React Router renders it. */
function staticFiles(clientDir: string): RequestHandler {
  const prerendered = new Set<string>();
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "index.html") continue;
    const rel = path.relative(clientDir, entry.parentPath).split(path.sep).join("/");
    prerendered.add(rel === "" ? "/" : `/${rel}`);
  }
  const serve = expressStaticGzip(clientDir, {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      setHeaders(res, filePath) {
        // The file sent may be the precompressed twin (index.html.br): judge by the original.
        const html = filePath.replace(/\.(br|gz)$/, "").endsWith(".html");
        const asset = path.relative(clientDir, filePath).startsWith(`assets${path.sep}`);
        res.setHeader(
          "Cache-Control",
          asset
            ? "public, max-age=31536000, immutable"
            : html
              ? "public, max-age=0, must-revalidate"
              : "public, max-age=3600",
        );
      },
    },
  });

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const [pathname = "/", query] = req.url.split("?", 2);
    if (prerendered.has(pathname)) {
      if (query !== undefined) return next();
      req.url = pathname === "/" ? "/index.html" : `${pathname}/index.html`;
      return serve(req, res, (error?: unknown) => {
        req.url = pathname;
        // A 416 or 412 for the file itself is the answer: React Router would render over it.
        next(error);
      });
    }
    // An index file only through its clean path ("/faq%2Findex.html" is not one).
    if (decodeURIComponent(pathname).endsWith("/index.html")) return next();
    return serve(req, res, next);
  };
}

function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === "number" ? status : statusCode;
  return typeof code === "number" && code >= 400 && code <= 599 ? code : 500;
}

/** Headers a half-finished answer (a static file refused after its headers were set) may leave. */
const LEFTOVERS =
  "Cache-Control Content-Type Content-Encoding Content-Length ETag Last-Modified Accept-Ranges".split(
    " ",
  );

/** Never Express's HTML page or a stack trace; a 4xx keeps its status and exposed headers. */
export function answerErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, _next) => {
    const status = statusOf(error);
    const where = { method: req.method, path: req.originalUrl.split("?", 1)[0] };
    if (status >= 500) logger.error({ ...where, err: error }, "request failed");
    else logger.info({ ...where, status, reason: (error as Error).message }, "request refused");
    if (res.headersSent) {
      // Part of an answer is on its way: the only honest end is to cut it.
      res.destroy();
      return;
    }
    for (const name of LEFTOVERS) res.removeHeader(name);
    const { headers, expose } = (error ?? {}) as { headers?: unknown; expose?: unknown };
    if (expose === true && headers && typeof headers === "object") {
      for (const [name, value] of Object.entries(headers)) {
        if (typeof value === "string") res.setHeader(name, value);
      }
    }
    plain(res, status);
  };
}

export function requestLog(
  logger: Logger,
  isReady?: () => boolean,
  fields?: object,
): RequestHandler {
  return (req, res, next) => {
    // While draining, ask keep-alive clients to go, so shutdown need not wait for idle sockets.
    if (isReady && !isReady()) res.setHeader("Connection", "close");
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info(
        {
          ...fields,
          method: req.method,
          path: req.originalUrl.split("?", 1)[0],
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - start) / 1e6,
        },
        "request",
      );
    });
    next();
  };
}

/** A context key the build's entry exports: the server must set the bundle's own object. */
export function contextKey(build: ServerBuild, name: string) {
  const key = (build.entry.module as unknown as Record<string, unknown>)[name];
  if (!key) throw new Error(`The server build does not export ${name} from entry.server`);
  return key as Parameters<RouterContextProvider["set"]>[0];
}

export function createApp(options: AppOptions) {
  const { build, clientDir, logger, services } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy);

  app.use(requestLog(logger, options.isReady));

  app.use(absoluteForm);
  for (const h of options.headers ?? []) app.use(h);
  app.use(refuseMethod);

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
  app.use(refuseHost, refuseTarget);
  app.use(staticFiles(clientDir));
  // Past the prerendered files answers are per request; a POST's may repeat what was typed.
  app.use((req, res, next) => {
    if (!res.hasHeader("Cache-Control")) {
      const read = req.method === "GET" || req.method === "HEAD";
      res.setHeader("Cache-Control", read ? "no-cache" : "no-store");
    }
    next();
  });
  app.use(compression());

  // Every mutation: React Router runs the action for any spelling of its path and any method.
  const mutations = new Set(["POST", "PUT", "PATCH", "DELETE"]);
  for (const guard of options.registrationGuards ?? []) {
    app.use((req, res, next) => (mutations.has(req.method) ? guard(req, res, next) : next()));
  }

  const appServicesContext = contextKey(build, "appServicesContext");

  // React Router's origin check allows exactly the host our guard approved (decision 068).
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
    const host = res.locals.approvedOriginHost as string | undefined;
    if (host === undefined) return handleWithReactRouter(req, res, next);
    return approvedHosts.run([host], () => handleWithReactRouter(req, res, next));
  });

  app.use(answerErrors(logger));
  return app;
}
