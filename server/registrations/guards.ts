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

/** What a mutation posts: a registration, or the button (or one-click) behind an email link. */
type Posted = "registration" | "confirm" | "unsubscribe";

/**
 * The exact paths of the POSTs behind email links, the document and its `.data` twin:
 * the unsubscribe page (its button, one-click, "Join the list again") and the confirm
 * page's button (docs/decisions/100). Only these skip the registration limits and share
 * the unsubscribe limit; a token cannot be guessed and a repeat changes nothing. Another
 * spelling still reaches the page, counted as a registration, the safe way to be wrong.
 */
const emailLinkPaths = new Map<string, Posted>(
  (["unsubscribe", "confirm"] as const).flatMap((kind) => {
    const p = registrationPaths[kind];
    return [p, `${p}/`, `${p}.data`].map((path) => [path, kind] as const);
  }),
);

function posted(req: Request): Posted {
  return emailLinkPaths.get(req.path) ?? "registration";
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

const statusOf = { origin: 403, unreadable: 411, tooLarge: 413, tooMany: 429 } as const;

type Refusal = keyof typeof statusOf;

/** A refusal speaks of what was posted: a registration, a confirmation or an unsubscribe. */
const wording: Record<
  Posted,
  { noun: string; several: string; retry: string; again: string; shorten?: string; back: string }
> = {
  registration: {
    noun: "registration",
    several: "several registrations",
    retry: "Please send the form again",
    again: "Please open the registration page on our site and send the form from there.",
    shorten: "Please shorten your message and try again.",
    back: '<a href="/register-interest">Back to the registration form</a> or <a href="/">go to the home page</a>.',
  },
  confirm: {
    noun: "confirmation",
    several: "a great many confirmations",
    retry: "Please press the button again",
    again: "Please open the link in our email again and press the button on that page.",
    back: '<a href="/">Go to the home page</a>.',
  },
  unsubscribe: {
    noun: "unsubscribe request",
    several: "a great many unsubscribe requests",
    retry: "Please press the button again",
    again: "Please open the unsubscribe link in our email again and press the button there.",
    back: '<a href="/">Go to the home page</a>.',
  },
};

function describeRefusal(kind: Posted, refusal: Refusal, retryAfterSeconds = 60) {
  const w = wording[kind];
  switch (refusal) {
    case "origin":
      return {
        title: `This ${w.noun} cannot be sent from here`,
        message: `For your safety, we only accept ${w.noun}s sent from our own website. ${w.again}`,
      };
    case "unreadable":
      return { title: w.retry, message: `We could not read that ${w.noun}. ${w.again}` };
    case "tooLarge":
      return {
        title: `Your ${w.noun} is too long`,
        message: `Your ${w.noun} is longer than we can accept. ${w.shorten ?? w.again}`,
      };
    case "tooMany":
      return {
        title: "Please wait a moment",
        message: `We have received ${w.several} from your connection in a short time. Please wait ${describeWait(retryAfterSeconds)} and try again: nothing you sent before has been lost.`,
      };
  }
}

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
function reject(
  req: Request,
  res: Response,
  refusal: Refusal,
  logger?: WarnLogger,
  retryAfterSeconds?: number,
) {
  const kind = posted(req);
  const status = statusOf[refusal];
  logger?.warn({ guard: status, path: req.path, posted: kind }, "POST refused");
  if (status === 411 || status === 413) res.setHeader("Connection", "close");
  res.status(status);
  const { title, message } = describeRefusal(kind, refusal, retryAfterSeconds);
  if (req.path.endsWith(".data") || req.path === registrationPaths.submit) {
    res.json({ error: message, retryAfterSeconds });
    return;
  }
  res.type("html").send(
    `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>${wording[kind].back}</p>
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

/** True when a browser says the POST came from a page of ours (docs/decisions/038, 131). */
export function isSameOrigin(req: Request, allowedOrigins: readonly string[]): boolean {
  const origin = req.get("origin");
  if (origin === undefined) {
    // Browsers send Origin with every POST; older ones at least send Sec-Fetch-Site.
    // Neither present means no browser, and so no visitor's ambient authority to abuse.
    const site = req.get("sec-fetch-site");
    return site === undefined || site === "same-origin" || site === "none";
  }
  const theirs = URL.parse(origin)?.origin;
  if (theirs === undefined || theirs === "null") return false; // sandboxed frames, garbage
  // req.protocol and req.host are the request's own, or X-Forwarded-Proto and -Host
  // when TRUST_PROXY trusts the proxy: the scheme counts, as in any origin.
  const ours = [`${req.protocol}://${req.host}`, ...allowedOrigins];
  return ours.some((allowed) => URL.parse(allowed)?.origin === theirs);
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
 * POSTs behind email links, which have their own looser one (UNSUBSCRIBE_PER_MINUTE).
 */
export function createRegistrationGuards(options: GuardOptions): RequestHandler[] {
  const { logger, allowedOrigins, maxBodyBytes = MAX_BODY_BYTES } = options;

  const originCheck: RequestHandler = (req, res, next) => {
    if (posted(req) === "unsubscribe") {
      // Its POSTs carry their own authority, the signed token: RFC 8058 one-clicks come
      // from mail providers with any Origin or none (docs/decisions/131). Dropped, so
      // that React Router's own check has no Origin to refuse either.
      delete req.headers.origin;
      return next();
    }
    if (isSameOrigin(req, allowedOrigins)) {
      approveOrigin(req, res);
      return next();
    }
    if (req.get("origin") === `https://${req.host}` && req.protocol === "http") {
      logger?.warn(
        { origin: req.get("origin") },
        "an https page posted over plain http: behind a TLS proxy, set TRUST_PROXY",
      );
    }
    reject(req, res, "origin", logger);
  };

  // The HTTP parser delivers exactly Content-Length bytes, so checking the header
  // bounds the body without reading it; a chunked body has no length to check and
  // browsers never send a form that way, so it is refused (docs/decisions/038).
  const bodyCap: RequestHandler = (req, res, next) => {
    if (req.get("transfer-encoding") !== undefined) return reject(req, res, "unreadable", logger);
    const length = Number(req.get("content-length") ?? "0");
    if (!Number.isSafeInteger(length) || length < 0 || length > maxBodyBytes) {
      return reject(req, res, "tooLarge", logger);
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
        reject(req, res, "tooMany", logger, retryAfterSeconds);
      },
    });

  const registering = (req: Request) => posted(req) === "registration";
  return [
    originCheck,
    bodyCap,
    limiter("registrations-per-minute", 60_000, options.perMinute, registering),
    limiter("registrations-per-day", 24 * 60 * 60_000, options.perDay, registering),
    limiter(
      "unsubscribe-per-minute",
      60_000,
      options.unsubscribePerMinute ?? UNSUBSCRIBE_PER_MINUTE,
      (req) => !registering(req),
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
