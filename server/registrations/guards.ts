import type { NextFunction, Request, RequestHandler, Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";

import { registrationPaths } from "../../contract/registrations.ts";
import type { Env } from "../env.ts";

/** The largest registration POST we read: the form's limits come to about 7 KB encoded. */
export const MAX_BODY_BYTES = 16 * 1024;

type WarnLogger = {
  warn(fields: Record<string, unknown>, message: string): void;
  error?(fields: Record<string, unknown>, message: string): void;
};

/**
 * One-clicks per minute from one client address on the unsubscribe page. Mail providers
 * send RFC 8058 one-click POSTs from a few addresses of theirs, so the registration
 * limits (a handful a minute) would refuse them; repeating one changes nothing, and a
 * token cannot be guessed, so a looser limit only bounds the work (docs/decisions/090).
 */
export const UNSUBSCRIBE_PER_MINUTE = 300;

/**
 * The exact paths of the POSTs behind email links, the document and its `.data` twin:
 * the unsubscribe page (its button, one-click, "Join the list again") and the confirm
 * page's button (docs/decisions/100). Only these skip the registration limits and share
 * the unsubscribe limit; a token cannot be guessed and a repeat changes nothing. Another
 * spelling still reaches the page, counted as a registration, the safe way to be wrong.
 */
const unsubscribePaths = new Set(
  [registrationPaths.unsubscribe, registrationPaths.confirm].flatMap((p) => [
    p,
    `${p}/`,
    `${p}.data`,
  ]),
);

export function isUnsubscribePost(req: Request): boolean {
  return unsubscribePaths.has(req.path);
}

export type GuardOptions = {
  perMinute: number;
  perDay: number;
  /** The unsubscribe POST's own limit per client address (UNSUBSCRIBE_PER_MINUTE). */
  unsubscribePerMinute?: number;
  /** Origins allowed besides the request's own host, e.g. "https://www.example.co.uk". */
  allowedOrigins: readonly string[];
  maxBodyBytes?: number;
  logger?: WarnLogger;
  /** Where each limiter counts (Redis when shared); express-rate-limit's memory by default. */
  storeFor?: (identifier: string) => Store | undefined;
};

type Rejection = {
  status: 403 | 411 | 413 | 429;
  title: string;
  message: string;
  retryAfterSeconds?: number;
};

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/**
 * Answers a refused POST. The form's script (POST /register-interest/submit, and any
 * `.data` URL) gets JSON it can act on (retryAfterSeconds); a form posted without
 * JavaScript gets a small, readable page with a way back.
 */
function reject(req: Request, res: Response, rejection: Rejection, logger?: WarnLogger) {
  logger?.warn({ guard: rejection.status, path: req.path }, "registration POST refused");
  if (rejection.status === 411 || rejection.status === 413) res.setHeader("Connection", "close");
  res.status(rejection.status);
  if (req.path.endsWith(".data") || req.path === registrationPaths.submit) {
    res.json({ error: rejection.message, retryAfterSeconds: rejection.retryAfterSeconds });
    return;
  }
  res.type("html").send(
    `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(rejection.title)}</title></head>
<body>
<main>
<h1>${escapeHtml(rejection.title)}</h1>
<p>${escapeHtml(rejection.message)}</p>
<p><a href="/register-interest">Back to the registration form</a> or <a href="/">go to the home page</a>.</p>
</main>
</body>
</html>
`,
  );
}

function describeWait(seconds: number): string {
  if (seconds <= 90) return "a minute";
  const hours = Math.ceil(seconds / 3600);
  return hours <= 1 ? "an hour" : `${hours} hours`;
}

/** True when a browser says the POST came from a page of ours (docs/decisions/038). */
export function isSameOrigin(req: Request, allowedOrigins: readonly string[]): boolean {
  const origin = req.get("origin");
  if (origin === undefined) {
    // Browsers send Origin with every POST; older ones at least send Sec-Fetch-Site.
    // Neither present means no browser, and so no visitor's ambient authority to abuse.
    const site = req.get("sec-fetch-site");
    return site === undefined || site === "same-origin" || site === "none";
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, some redirects) or garbage
  }
  // req.host is the Host header, or X-Forwarded-Host when TRUST_PROXY trusts the proxy.
  if (url.host === req.host) return true;
  return allowedOrigins.some((allowed) => {
    try {
      return new URL(allowed).origin === url.origin;
    } catch {
      return false;
    }
  });
}

/**
 * Records that the origin check accepted this request's Origin, so that React Router's
 * own action-origin check can be told to agree (server/app.ts, docs/decisions/068).
 */
function approveOrigin(req: Request, res: Response) {
  const origin = req.get("origin");
  if (origin === undefined) return; // React Router checks nothing without an Origin either
  res.locals[APPROVED_ORIGIN_HOST] = new URL(origin).host;
}

const APPROVED_ORIGIN_HOST = "approvedOriginHost";

/** The host of the Origin the origin check accepted for this request, if it accepted one. */
export function approvedOriginHost(res: Response): string | undefined {
  const host: unknown = res.locals[APPROVED_ORIGIN_HOST];
  return typeof host === "string" ? host : undefined;
}

/**
 * Middleware for every mutation: origin check, body-size cap, then per-address rate
 * limits. The registration limits (per minute and per day) count every mutation but the
 * unsubscribe POST, which has its own looser one (UNSUBSCRIBE_PER_MINUTE).
 */
export function createRegistrationGuards(options: GuardOptions): RequestHandler[] {
  const { logger, allowedOrigins, maxBodyBytes = MAX_BODY_BYTES } = options;

  const originCheck: RequestHandler = (req, res, next) => {
    if (isSameOrigin(req, allowedOrigins)) {
      approveOrigin(req, res);
      return next();
    }
    reject(
      req,
      res,
      {
        status: 403,
        title: "This form cannot be sent from here",
        message:
          "For your safety, we only accept registrations sent from our own website. Please open the registration page on our site and send the form from there.",
      },
      logger,
    );
  };

  // The HTTP parser delivers exactly Content-Length bytes, so checking the header
  // bounds the body without reading it; a chunked body has no length to check and
  // browsers never send a form that way, so it is refused (docs/decisions/038).
  const bodyCap: RequestHandler = (req, res, next) => {
    const tooLarge: Rejection = {
      status: 413,
      title: "Your registration is too long",
      message:
        "Your registration is longer than we can accept. Please shorten your message and try again.",
    };
    if (req.get("transfer-encoding") !== undefined) {
      return reject(
        req,
        res,
        {
          status: 411,
          title: "Please send the form again",
          message:
            "We could not read that registration. Please send the form again from our website.",
        },
        logger,
      );
    }
    const length = Number(req.get("content-length") ?? "0");
    if (!Number.isSafeInteger(length) || length < 0 || length > maxBodyBytes) {
      return reject(req, res, tooLarge, logger);
    }
    next();
  };

  // express-rate-limit reports store errors and misconfigurations through this logger,
  // so they stay JSON log lines instead of console text.
  const limiterLogger = {
    warn: (error: unknown, message?: string) =>
      logger?.warn({ err: error }, message ?? "express-rate-limit warning"),
    error: (error: unknown, message?: string) =>
      (logger?.error ?? logger?.warn)?.call(
        logger,
        { err: error },
        message ?? "express-rate-limit error",
      ),
  };

  const limiter = (
    identifier: string,
    windowMs: number,
    limit: number,
    applies: (req: Request) => boolean,
    tooMany: string,
  ) =>
    rateLimit({
      windowMs,
      limit,
      identifier,
      skip: (req) => !applies(req),
      store: options.storeFor?.(identifier),
      // A shared store that cannot be reached lets the registration through (and logs
      // it) rather than refusing every visitor: docs/decisions/070.
      passOnStoreError: true,
      logger: limiterLogger,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      handler(req: Request, res: Response, _next: NextFunction) {
        const retryAfterSeconds =
          Number(res.getHeader("Retry-After")) || Math.ceil(windowMs / 1000);
        reject(
          req,
          res,
          {
            status: 429,
            title: "Please wait a moment",
            message: `${tooMany} Please wait ${describeWait(retryAfterSeconds)} and try again: nothing you sent before has been lost.`,
            retryAfterSeconds,
          },
          logger,
        );
      },
    });

  const registering = (req: Request) => !isUnsubscribePost(req);
  const severalRegistrations =
    "We have received several registrations from your connection in a short time.";
  return [
    originCheck,
    bodyCap,
    limiter(
      "registrations-per-minute",
      60_000,
      options.perMinute,
      registering,
      severalRegistrations,
    ),
    limiter(
      "registrations-per-day",
      24 * 60 * 60_000,
      options.perDay,
      registering,
      severalRegistrations,
    ),
    limiter(
      "unsubscribe-per-minute",
      60_000,
      options.unsubscribePerMinute ?? UNSUBSCRIBE_PER_MINUTE,
      isUnsubscribePost,
      "We have received a great many unsubscribe requests from your connection in a short time.",
    ),
  ];
}

/** The guards as the environment configures them (RATE_LIMIT_*, ALLOWED_ORIGINS). */
export function registrationGuardsFromEnv(
  env: Pick<Env, "RATE_LIMIT_PER_MINUTE" | "RATE_LIMIT_PER_DAY" | "ALLOWED_ORIGINS">,
  logger?: WarnLogger,
  storeFor?: GuardOptions["storeFor"],
): RequestHandler[] {
  return createRegistrationGuards({
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    perDay: env.RATE_LIMIT_PER_DAY,
    allowedOrigins: env.ALLOWED_ORIGINS,
    logger,
    storeFor,
  });
}
