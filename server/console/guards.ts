import type { Request, RequestHandler, Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";

/** The largest console POST read: a passkey response is a few kilobytes. */
export const CONSOLE_MAX_BODY_BYTES = 64 * 1024;

/** Posts without a session per client address: a ceremony takes two (options, then answer). */
export const SIGN_IN_PER_MINUTE = 30;
export const SIGN_IN_PER_HOUR = 300;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const notFromTheConsole = "This request did not come from the staff console, so it was refused.";
const tooManySignIns =
  "Too many sign-in attempts from your connection. Please wait a few minutes and try again.";

/**
 * Whether a state-changing request came from a console page: its Origin must be exactly
 * the console's origin, scheme and port included. No Origin is refused: every browser
 * sends one with a POST, and anything else has no business changing staff data.
 */
export function isConsoleOrigin(origin: string | undefined, consoleOrigin: string): boolean {
  if (origin === undefined) return false;
  try {
    return new URL(origin).origin === consoleOrigin && origin === consoleOrigin;
  } catch {
    return false;
  }
}

/** A console refusal in plain words: JSON for a `.data` or JSON request, text otherwise. */
export function refuse(
  req: Request,
  res: Response,
  status: 403 | 405 | 411 | 413 | 429,
  message: string,
) {
  res.status(status);
  if (req.get("accept")?.includes("application/json") || req.path.endsWith(".data")) {
    res.json({ ok: false, message });
    return;
  }
  res.type("text/plain").send(`${message}\n`);
}

export type ConsoleGuardOptions = {
  consoleOrigin: string;
  /** The request's live session's staff member (resolved before the guards run), or null. */
  staffOf: (res: Response) => { id: string } | null;
  /** Audits a signed-in staff member's refused post; one without a session is only logged. */
  refused?: (req: Request, res: Response, reason: "origin") => Promise<void>;
  storeFor?: (identifier: string) => Store | undefined;
  /** CONSOLE_SIGN_IN_PER_MINUTE and _PER_HOUR: the end-to-end suite's shared server raises them. */
  signInLimits?: { perMinute?: number; perHour?: number };
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
};

/**
 * Run before React Router on every console request that is not GET or HEAD: the origin
 * check, the body cap, and the sign-in limit, which counts every post made without a
 * session, whatever path it names (docs/decisions/133).
 */
export function consoleGuards(options: ConsoleGuardOptions): RequestHandler[] {
  const { consoleOrigin, logger, signInLimits: limits } = options;
  const origin: RequestHandler = (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || isConsoleOrigin(req.get("origin"), consoleOrigin)) {
      return next();
    }
    const staffId = options.staffOf(res)?.id ?? null;
    logger?.warn(
      { path: req.path, origin: req.get("origin") ?? null, staffId },
      "console POST refused: origin",
    );
    (options.refused?.(req, res, "origin") ?? Promise.resolve())
      .then(() => refuse(req, res, 403, notFromTheConsole))
      .catch(next);
  };
  const bodyCap: RequestHandler = (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.get("transfer-encoding") !== undefined) {
      return refuse(req, res, 411, "Send the request with a length.");
    }
    const length = Number(req.get("content-length") ?? "0");
    if (!Number.isSafeInteger(length) || length < 0 || length > CONSOLE_MAX_BODY_BYTES) {
      return refuse(req, res, 413, "That request is too large.");
    }
    next();
  };
  const limiter = (identifier: string, windowMs: number, limit: number) =>
    rateLimit({
      windowMs,
      limit,
      identifier,
      skip: (req, res) => SAFE_METHODS.has(req.method) || options.staffOf(res) !== null,
      store: options.storeFor?.(identifier),
      passOnStoreError: true,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      handler(req, res) {
        logger?.warn({ path: req.path }, "console sign-in limit reached");
        refuse(req, res, 429, tooManySignIns);
      },
    });
  return [
    origin,
    bodyCap,
    limiter("console-sign-in-per-minute", 60_000, limits?.perMinute ?? SIGN_IN_PER_MINUTE),
    limiter("console-sign-in-per-hour", 60 * 60_000, limits?.perHour ?? SIGN_IN_PER_HOUR),
  ];
}
