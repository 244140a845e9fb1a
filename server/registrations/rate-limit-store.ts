import type { Store } from "express-rate-limit";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";

import type { Logger } from "../logger.ts";

/**
 * Where the registration rate limits count (docs/decisions/070). Without REDIS_URL each
 * server counts in its own memory (express-rate-limit's MemoryStore), which is right for
 * the single embedded server. With REDIS_URL every server counts in one Redis, so several
 * app servers behind a proxy share the allowance instead of multiplying it.
 */
export type RateLimitStores = {
  /** A store for one limiter; undefined means express-rate-limit's in-memory default. */
  storeFor(identifier: string): Store | undefined;
  close(): Promise<void>;
};

export const inMemoryStores: RateLimitStores = {
  storeFor: () => undefined,
  close: async () => undefined,
};

/**
 * Connects to Redis and gives each limiter its own key prefix. Start-up waits for Redis
 * (rate-limit-redis loads its scripts once, at creation); after that a lost connection
 * makes commands fail at once (no offline queue) and the limiter lets the request through
 * with an error log line, while the client reconnects in the background.
 */
export async function connectRateLimitStores(
  url: string,
  logger: Logger,
  options: { keyPrefix?: string; connectTimeoutMs?: number } = {},
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

  const timeoutMs = options.connectTimeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`could not reach Redis within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }

  return {
    storeFor: (identifier) =>
      new RedisStore({
        prefix: `${options.keyPrefix ?? "clinic:"}rl:${identifier}:`,
        sendCommand: (...args: string[]) => client.sendCommand(args),
      }),
    async close() {
      if (client.isOpen) await client.close();
      else client.destroy();
    },
  };
}
