import type { NextFunction, Request, RequestHandler, Response } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";

import { registrationPaths } from "../../contract/registrations.ts";
import type { Logger } from "../logger.ts";

/** The form's limits come to about 7 KB encoded. */
export const MAX_BODY_BYTES = 16 * 1024;

// Looser: mail providers send one-click POSTs from a few addresses of theirs (decision 090).
const UNSUBSCRIBE_PER_MINUTE = 300;

type Posted = "registration" | "confirm" | "unsubscribe";

/** Other spellings reach the page too, counted as registrations: the safe way to be wrong. */
const emailLinkPaths = new Map<string, Posted>(
  (["unsubscribe", "confirm"] as const).flatMap((kind) => {
    const p = registrationPaths[kind];
    return [p, `${p}/`, `${p}.data`].map((path) => [path, kind] as const);
  }),
);

function posted(req: Request): Posted {
  return emailLinkPaths.get(req.path) ?? "registration";
}

type GuardOptions = {
  perMinute: number;
  perDay: number;
  unsubscribePerMinute?: number;
  /** Besides the request's own host, e.g. "https://www.example.co.uk". */
  allowedOrigins: readonly string[];
  logger?: Pick<Logger, "warn" | "error">;
  storeFor?: (identifier: string) => Store | undefined;
};

const statusOf = { origin: 403, unreadable: 411, tooLarge: 413, tooMany: 429 } as const;

type Refusal = keyof typeof statusOf;

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

function describeWait(seconds: number): string {
  if (seconds <= 90) return "a minute";
  const hours = Math.ceil(seconds / 3600);
  return hours <= 1 ? "an hour" : `${hours} hours`;
}

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

/** True when a browser says the POST came from a page of ours (decisions 038, 131). */
function isSameOrigin(req: Request, allowedOrigins: readonly string[]): boolean {
  const origin = req.get("origin");
  if (origin === undefined) {
    // Older browsers send at least Sec-Fetch-Site; neither means no browser to abuse.
    const site = req.get("sec-fetch-site");
    return site === undefined || site === "same-origin" || site === "none";
  }
  const theirs = URL.parse(origin)?.origin;
  if (theirs === undefined || theirs === "null") return false;
  // The request's own scheme and host, or X-Forwarded-* when TRUST_PROXY trusts the proxy.
  const ours = [`${req.protocol}://${req.host}`, ...allowedOrigins];
  return ours.some((allowed) => URL.parse(allowed)?.origin === theirs);
}

export function createRegistrationGuards(options: GuardOptions): RequestHandler[] {
  const { logger, allowedOrigins } = options;

  // JSON for the island and `.data`, else a small page of our own wording (nothing to escape).
  function reject(req: Request, res: Response, refusal: Refusal, retryAfterSeconds?: number) {
    const kind = posted(req);
    const status = statusOf[refusal];
    logger?.warn({ guard: status, path: req.path, posted: kind }, "POST refused");
    if (status === 411 || status === 413) res.setHeader("Connection", "close");
    res.status(status);
    const { title, message } = describeRefusal(kind, refusal, retryAfterSeconds);
    if (req.path.endsWith(".data") || req.get("accept")?.includes("application/json")) {
      res.json({ error: message, retryAfterSeconds });
      return;
    }
    res.type("html").send(
      `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body>
<main>
<h1>${title}</h1>
<p>${message}</p>
<p>${wording[kind].back}</p>
</main>
</body>
</html>
`,
    );
  }

  const originCheck: RequestHandler = (req, res, next) => {
    if (posted(req) === "unsubscribe") {
      // The signed token is the authority; mail providers' one-clicks carry any Origin (131).
      delete req.headers.origin;
      return next();
    }
    if (isSameOrigin(req, allowedOrigins)) {
      const origin = req.get("origin");
      // So that React Router's own action-origin check can be told to agree (decision 068).
      if (origin !== undefined) res.locals.approvedOriginHost = new URL(origin).host;
      return next();
    }
    if (req.get("origin") === `https://${req.host}` && req.protocol === "http") {
      logger?.warn(
        { origin: req.get("origin") },
        "an https page posted over plain http: behind a TLS proxy, set TRUST_PROXY",
      );
    }
    reject(req, res, "origin");
  };

  // Content-Length bounds the body unread; browsers never send a form chunked (decision 038).
  const bodyCap: RequestHandler = (req, res, next) => {
    if (req.get("transfer-encoding") !== undefined) return reject(req, res, "unreadable");
    const length = Number(req.get("content-length") ?? "0");
    if (!Number.isSafeInteger(length) || length < 0 || length > MAX_BODY_BYTES) {
      return reject(req, res, "tooLarge");
    }
    next();
  };

  // So that store errors and misconfigurations stay JSON log lines, not console text.
  const limiterLogger = {
    warn: (error: unknown, message?: string) =>
      logger?.warn({ err: error }, message ?? "express-rate-limit warning"),
    error: (error: unknown, message?: string) =>
      logger?.error({ err: error }, message ?? "express-rate-limit error"),
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
      // Rather than refusing every visitor (decision 070).
      passOnStoreError: true,
      logger: limiterLogger,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      handler(req: Request, res: Response, _next: NextFunction) {
        const retryAfterSeconds =
          Number(res.getHeader("Retry-After")) || Math.ceil(windowMs / 1000);
        reject(req, res, "tooMany", retryAfterSeconds);
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

/** Where the limits count: in memory, or in one Redis that every server shares (decision 070). */
export type RateLimitStores = {
  storeFor(identifier: string): Store | undefined;
  close(): Promise<void>;
};

export const inMemoryStores: RateLimitStores = {
  storeFor: () => undefined,
  close: async () => undefined,
};

/** Waits for Redis once (scripts load at creation); later, commands fail fast and requests pass. */
export async function connectRateLimitStores(
  url: string,
  logger: Logger,
  options: { keyPrefix: string },
): Promise<RateLimitStores> {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000),
    },
  });
  let lastErrorLogged = 0;
  client.on("error", (error: Error) => {
    // The client reports each failed reconnection; one line every 10 s is enough.
    if (Date.now() - lastErrorLogged < 10_000) return;
    lastErrorLogged = Date.now();
    logger.error({ err: error }, "rate-limit store: Redis connection error");
  });
  client.on("ready", () => logger.info("rate-limit store: connected to Redis"));

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("could not reach Redis within 15 s")), 15_000);
  });
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }

  return {
    storeFor: (identifier) =>
      new RedisStore({
        prefix: `${options.keyPrefix}rl:${identifier}:`,
        sendCommand: (...args: string[]) => client.sendCommand(args),
      }),
    async close() {
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}
