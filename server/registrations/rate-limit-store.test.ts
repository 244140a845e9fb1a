import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";

import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";

import { startTcpProxy } from "../../tests/support/tcp-proxy.ts";
import { createLogger } from "../logger.ts";
import { createRegistrationGuards } from "./guards.ts";
import { connectRateLimitStores, type RateLimitStores } from "./rate-limit-store.ts";

/**
 * The shared rate limit against a real Redis (TEST_REDIS_URL; CI sets it): two app
 * servers count together, and a Redis that goes away lets registrations through
 * rather than failing them (docs/decisions/070).
 */
const redisUrl = process.env.TEST_REDIS_URL;

type Server = ReturnType<ReturnType<typeof express>["listen"]>;
const cleanup: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const task of cleanup.splice(0).reverse()) await task();
});

async function startInstance(stores: RateLimitStores, logger = { warn: vi.fn(), error: vi.fn() }) {
  const app = express();
  for (const guard of createRegistrationGuards({
    perMinute: 5,
    perDay: 1000,
    allowedOrigins: [],
    logger,
    storeFor: stores.storeFor,
  })) {
    app.use(guard);
  }
  app.post("/register-interest", (_req, res) => {
    res.json({ ok: true });
  });
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/register-interest`, logger };
}

const post = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "name=Sam",
  }).then((r) => r.status);

describe.runIf(redisUrl)("rate limits shared through Redis", () => {
  it("holds across two servers: 10 posts alternating between them, exactly 5 accepted", async () => {
    const keyPrefix = `test-${randomUUID()}:`;
    const logger = createLogger("silent");
    const storesA = await connectRateLimitStores(redisUrl ?? "", logger, { keyPrefix });
    const storesB = await connectRateLimitStores(redisUrl ?? "", logger, { keyPrefix });
    cleanup.push(
      () => storesA.close(),
      () => storesB.close(),
    );
    const a = await startInstance(storesA);
    const b = await startInstance(storesB);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await post(i % 2 === 0 ? a.url : b.url));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("each server alone would have allowed 5 (the in-memory store is per process)", async () => {
    const memory = { storeFor: () => undefined, close: async () => undefined };
    const a = await startInstance(memory);
    const b = await startInstance(memory);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await post(i % 2 === 0 ? a.url : b.url));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  });

  it("lets registrations through with an error log line while Redis is unreachable, and counts again after", async () => {
    const target = new URL(redisUrl ?? "");
    const relay = await startTcpProxy(target.hostname, Number(target.port || 6379));
    cleanup.push(() => relay.close());
    const relayed = new URL(target);
    relayed.port = String(relay.port);
    const stores = await connectRateLimitStores(relayed.toString(), createLogger("silent"), {
      keyPrefix: `test-${randomUUID()}:`,
    });
    cleanup.push(() => stores.close());
    const instance = await startInstance(stores);

    expect(await post(instance.url)).toBe(200);
    await relay.down();
    const during: number[] = [];
    for (let i = 0; i < 8; i += 1) during.push(await post(instance.url));
    expect(during.every((s) => s === 200)).toBe(true);
    expect(instance.logger.error).toHaveBeenCalled();

    await relay.up();
    // The client reconnects in the background; then counting resumes and the limit holds.
    await vi.waitFor(
      async () => {
        expect(await post(instance.url)).toBe(429);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
