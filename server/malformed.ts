import { STATUS_CODES } from "node:http";

import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";

import type { Logger } from "./logger.ts";

/** The methods this site answers: pages (GET, HEAD), the registration form (POST), OPTIONS. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "OPTIONS"] as const;
const allowed = new Set<string>(ALLOWED_METHODS);
const ALLOW = ALLOWED_METHODS.join(", ");

/** A short plain-text answer that cannot be cached: nothing about it is worth keeping. */
function plain(res: Response, status: number, message?: string) {
  res.setHeader("Cache-Control", "no-store");
  res
    .status(status)
    .type("text/plain; charset=utf-8")
    .send(`${message ?? STATUS_CODES[status] ?? "Error"}\n`);
}

/** A Host (or X-Forwarded-Host) value a URL can be built from: a name or address and a port. */
export function isUsableHost(value: string | undefined): boolean {
  if (!value || /[\s/?#@\\]/.test(value)) return false;
  try {
    return new URL(`http://${value}/`).host !== "";
  } catch {
    return false;
  }
}

/**
 * An absolute-form target (`GET http://host/path`), which HTTP/1.1 servers must accept,
 * becomes its path, and its authority the Host (RFC 9112 section 3.2.2): React Router would
 * glue it to the Host into an invalid URL. First in the chain, so that the security headers
 * see the path too; any other target that is not a path is refused by `refuseMalformed.target`.
 */
export const absoluteForm: RequestHandler = (req, _res, next) => {
  const url = req.url.startsWith("/") ? null : URL.parse(req.url);
  if (url?.protocol === "http:" || url?.protocol === "https:") {
    req.url = req.originalUrl = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
  }
  next();
};

/**
 * Requests refused before any route sees them (docs/decisions/074, 131). React Router
 * builds a WHATWG Request from every request it gets, and that throws for TRACE,
 * CONNECT and TRACK, and for a missing or garbled Host; those would be 500s.
 */
export const refuseMalformed: {
  method: RequestHandler;
  host: RequestHandler;
  target: RequestHandler;
} = {
  method(req, res, next) {
    if (allowed.has(req.method)) {
      if (req.method !== "OPTIONS") return next();
      res.setHeader("Allow", ALLOW);
      res.setHeader("Cache-Control", "no-store");
      res.status(204).end();
      return;
    }
    res.setHeader("Allow", ALLOW);
    plain(res, 405);
  },
  host(req, res, next) {
    // RFC 9112 section 3.2; Node keeps only the first of several.
    if ((req.headersDistinct.host?.length ?? 0) > 1)
      return plain(res, 400, "Bad Request: more than one Host header");
    // HTTP/1.1 requires Host (Node refuses its absence there); HTTP/1.0 may omit it.
    if (!isUsableHost(req.get("host")))
      return plain(res, 400, "Bad Request: no usable Host header");
    const forwarded = req.app.enabled("trust proxy") ? req.get("x-forwarded-host") : undefined;
    if (forwarded !== undefined && !forwarded.split(",").every((h) => isUsableHost(h.trim()))) {
      return plain(res, 400, "Bad Request: no usable X-Forwarded-Host header");
    }
    next();
  },
  /**
   * A target must be a path by now (OPTIONS * was answered before) whose escapes decode:
   * "/%c0%ae" is refused here, once, rather than by whichever part decodes it first
   * (express-static-gzip answered its own HTML 400).
   */
  target(req, res, next) {
    if (!req.url.startsWith("/")) return plain(res, 400, "Bad Request: unusable request target");
    try {
      decodeURIComponent(req.path);
    } catch (error) {
      return next(Object.assign(error as Error, { status: 400 }));
    }
    next();
  },
};

function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === "number" ? status : statusCode;
  return typeof code === "number" && code >= 400 && code <= 599 ? code : 500;
}

/** Headers a half-finished answer (a static file refused after its headers were set) may leave. */
const LEFTOVERS = [
  "Cache-Control",
  "Content-Type",
  "Content-Encoding",
  "Content-Length",
  "ETag",
  "Last-Modified",
  "Accept-Ranges",
];

/**
 * The last handler: any error that reaches Express becomes a short plain answer and
 * one JSON log line, never Express's HTML page or a stack trace on stderr. A client
 * error (4xx, e.g. a range past the end of a file) keeps its status and the headers
 * it carries (Content-Range on a 416); everything else is a 500.
 */
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
