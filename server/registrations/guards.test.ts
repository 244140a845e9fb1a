import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";

import { startTcpProxy } from "../../tests/support/tcp-proxy.ts";
import { createLogger } from "../logger.ts";
import {
  MAX_BODY_BYTES,
  connectRateLimitStores,
  createRegistrationGuards,
  type RateLimitStores,
} from "./guards.ts";

type Server = ReturnType<ReturnType<typeof express>["listen"]>;
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/**
 * A tiny app shaped like server/app.ts: the guards on every mutation, then a handler
 * that reads the body itself, as React Router does.
 */
async function start(
  options: Partial<Parameters<typeof createRegistrationGuards>[0]> = {},
  trustProxy = 0,
) {
  const app = express();
  app.set("trust proxy", trustProxy);
  const guards = createRegistrationGuards({
    perMinute: 100,
    perDay: 1000,
    allowedOrigins: [],
    logger: { warn: vi.fn(), error: vi.fn() },
    ...options,
  });
  const mutations = new Set(["POST", "PUT", "PATCH", "DELETE"]);
  for (const guard of guards) {
    app.use((req, res, next) => (mutations.has(req.method) ? guard(req, res, next) : next()));
  }
  app.post(
    [
      "/register-interest",
      "/register-interest.data",
      "/unsubscribe",
      "/unsubscribe/",
      "/unsubscribe.data",
      "/Unsubscribe",
      "/register-interest/confirm",
    ],
    async (req, res) => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      res.json({ received: body });
    },
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server?.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

function post(base: string, path: string, headers: Record<string, string>, body = "name=Sam") {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
}

describe("origin check", () => {
  it("lets a same-origin POST through with its body intact", async () => {
    const base = await start();
    const res = await post(base, "/register-interest", { origin: base }, "name=Sam&email=a%40b.co");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: "name=Sam&email=a%40b.co" });
  });

  it("refuses a foreign origin with a readable page, and the JavaScript path with JSON", async () => {
    const base = await start();
    const page = await post(base, "/register-interest", { origin: "https://evil.example" });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/only accept registrations sent from our own website/);

    const data = await post(base, "/register-interest.data", { origin: "https://evil.example" });
    expect(data.status).toBe(403);
    expect(await data.json()).toMatchObject({ error: expect.stringMatching(/own website/) });

    const island = await post(base, "/register-interest", {
      origin: "https://evil.example",
      accept: "application/json",
    });
    expect(island.status).toBe(403);
    expect(await island.json()).toMatchObject({ error: expect.stringMatching(/own website/) });
  });

  it("compares the scheme too: an https Origin on an http site is refused, with a hint in the log", async () => {
    const warn = vi.fn();
    const base = await start({ logger: { warn, error: vi.fn() } });
    const https = base.replace("http:", "https:");
    expect((await post(base, "/register-interest", { origin: https })).status).toBe(403);
    expect(warn).toHaveBeenCalledWith(
      { origin: https },
      expect.stringContaining("set TRUST_PROXY"),
    );
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(200);
  });

  const extra = { allowedOrigins: ["https://www.example.co.uk"] };
  it.each<[string, number, Record<string, string>, Parameters<typeof start>?]>([
    ["the opaque origin 'null'", 403, { origin: "null" }],
    ["a cross-site fetch without Origin", 403, { "sec-fetch-site": "cross-site" }],
    ["a same-origin fetch without Origin", 200, { "sec-fetch-site": "same-origin" }],
    ["an origin in ALLOWED_ORIGINS", 200, { origin: "https://www.example.co.uk" }, [extra]],
    ["that host over http", 403, { origin: "http://www.example.co.uk" }, [extra]],
    [
      "X-Forwarded-Host behind a trusted proxy",
      200,
      {
        origin: "https://www.example.co.uk",
        "x-forwarded-host": "www.example.co.uk",
        "x-forwarded-proto": "https",
        "x-forwarded-for": "203.0.113.9",
      },
      [{}, 1],
    ],
    [
      "X-Forwarded-Host from a client when no proxy is trusted",
      403,
      { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
    ],
  ])("%s: %i", async (_, status, headers, options = []) => {
    const base = await start(...options);
    expect((await post(base, "/register-interest", headers)).status).toBe(status);
  });

  it("leaves GET requests alone", async () => {
    const base = await start();
    const res = await fetch(`${base}/register-interest`, {
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(404);
  });
});

describe("body cap", () => {
  it("accepts a body at the cap and refuses one byte more with 413", async () => {
    const base = await start();
    const atCap = `name=${"x".repeat(MAX_BODY_BYTES - 5)}`;
    const ok = await post(base, "/register-interest", { origin: base }, atCap);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { received: string }).received).toHaveLength(MAX_BODY_BYTES);

    const over = await post(base, "/register-interest", { origin: base }, `${atCap}x`);
    expect(over.status).toBe(413);
    expect(await over.text()).toMatch(/shorten your message/);
  });

  it("refuses a chunked body, whose size cannot be known before reading it", async () => {
    const base = await start();
    const { hostname, port } = new URL(base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          hostname,
          port,
          path: "/register-interest",
          method: "POST",
          headers: {
            origin: base,
            "content-type": "application/x-www-form-urlencoded",
            "transfer-encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write("name=");
      req.end("x".repeat(100));
    });
    expect(status).toBe(411);
  });
});

describe("rate limits", () => {
  it("allows the per-minute number of POSTs, then answers 429 with Retry-After", async () => {
    const base = await start({ perMinute: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await post(base, "/register-interest", { origin: base })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    const limited = await post(base, "/register-interest.data", { origin: base });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({
      error: expect.stringMatching(/wait a minute/),
      retryAfterSeconds: retryAfter,
    });
  });

  it("counts both paths together and applies the daily limit too", async () => {
    const base = await start({ perMinute: 100, perDay: 3 });
    const statuses = [];
    for (const path of [
      "/register-interest",
      "/register-interest.data",
      "/register-interest",
      "/register-interest.data",
    ]) {
      statuses.push((await post(base, path, { origin: base })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await post(base, "/register-interest", { origin: base });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await limited.text()).toMatch(/Please wait (an hour|\d+ hours)/);
  });

  it("does not count refused foreign POSTs against the visitor's allowance", async () => {
    const base = await start({ perMinute: 1 });
    await post(base, "/register-interest", { origin: "https://evil.example" });
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(200);
  });
});

describe("the unsubscribe POST", () => {
  const oneClick = "List-Unsubscribe=One-Click";

  it("is not counted against the registration limits, and does not use them up", async () => {
    const base = await start({ perMinute: 2, perDay: 3, unsubscribePerMinute: 100 });
    const statuses = [];
    // A mail provider's one-clicks: no Origin, many from one address.
    for (let i = 0; i < 20; i++) {
      const path = ["/unsubscribe?token=u.a.b", "/unsubscribe/", "/unsubscribe.data"][i % 3] ?? "";
      statuses.push((await post(base, path, {}, oneClick)).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // The visitor's registration allowance is untouched by them.
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(200);
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(200);
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(429);
  });

  it("has its own limit per address, with a page that speaks of unsubscribing", async () => {
    const base = await start({ perMinute: 100, unsubscribePerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await post(base, "/unsubscribe", {}, oneClick)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await post(base, "/unsubscribe", {}, oneClick);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toMatch(/many unsubscribe requests/);
    // Registrations are counted apart.
    expect((await post(base, "/register-interest", { origin: base })).status).toBe(200);
  });

  it("is exempt only at its exact paths: another spelling counts as a registration", async () => {
    const base = await start({ perMinute: 1, unsubscribePerMinute: 100 });
    expect((await post(base, "/Unsubscribe", {}, oneClick)).status).toBe(200);
    expect((await post(base, "/Unsubscribe", {}, oneClick)).status).toBe(429);
    expect((await post(base, "/unsubscribe", {}, oneClick)).status).toBe(200);
  });

  it("takes any Origin or none, the token being the authority, and keeps the body cap", async () => {
    const base = await start({ unsubscribePerMinute: 100 });
    for (const origin of ["https://mail.example", "null", "not an origin", base]) {
      expect((await post(base, "/unsubscribe", { origin }, oneClick)).status, origin).toBe(200);
    }
    const crossSite = await post(
      base,
      "/unsubscribe",
      { "sec-fetch-site": "cross-site" },
      oneClick,
    );
    expect(crossSite.status).toBe(200);
    const tooLong = `${oneClick}&x=${"y".repeat(MAX_BODY_BYTES)}`;
    expect((await post(base, "/unsubscribe", {}, tooLong)).status).toBe(413);
  });
});

describe("refusals speak of what was posted", () => {
  it("a confirmation from another site is refused in words about confirming", async () => {
    const base = await start();
    const page = await post(base, "/register-interest/confirm", { origin: "https://evil.example" });
    expect(page.status).toBe(403);
    const text = await page.text();
    expect(text).toContain("<title>This confirmation cannot be sent from here</title>");
    expect(text).toContain("open the link in our email again");
    expect(text).not.toMatch(/registration/i);
  });

  it("an unsubscribe or confirmation too long, unmeasured or too frequent never talks of registrations", async () => {
    const base = await start({ unsubscribePerMinute: 2 });
    const tooLong = "x".repeat(MAX_BODY_BYTES + 1);
    const answers = [
      await post(base, "/unsubscribe", {}, tooLong),
      await post(base, "/register-interest/confirm", { origin: base }, tooLong),
      await post(base, "/unsubscribe", {}),
      await post(base, "/unsubscribe", {}),
      await post(base, "/register-interest/confirm", { origin: base }),
    ];
    expect(answers.map((a) => a.status)).toEqual([413, 413, 200, 200, 429]);
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(texts[0]).toContain("Your unsubscribe request is too long");
    expect(texts[1]).toContain("Your confirmation is too long");
    expect(texts[4]).toContain("a great many confirmations");
    for (const text of texts) expect(text).not.toMatch(/registration/i);
  });
});

/**
 * The shared rate limit against a real Redis (TEST_REDIS_URL; CI sets it): two app
 * servers count together, and a Redis that goes away lets registrations through
 * rather than failing them (docs/decisions/070).
 */
const redisUrl = process.env.TEST_REDIS_URL;

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

const postTo = (url: string) =>
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
    for (let i = 0; i < 10; i += 1) statuses.push(await postTo(i % 2 === 0 ? a.url : b.url));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("each server alone would have allowed 5 (the in-memory store is per process)", async () => {
    const memory = { storeFor: () => undefined, close: async () => undefined };
    const a = await startInstance(memory);
    const b = await startInstance(memory);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await postTo(i % 2 === 0 ? a.url : b.url));
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

    expect(await postTo(instance.url)).toBe(200);
    await relay.down();
    const during: number[] = [];
    for (let i = 0; i < 8; i += 1) during.push(await postTo(instance.url));
    expect(during.every((s) => s === 200)).toBe(true);
    expect(instance.logger.error).toHaveBeenCalled();

    await relay.up();
    // The client reconnects in the background; then counting resumes and the limit holds.
    await vi.waitFor(
      async () => {
        expect(await postTo(instance.url)).toBe(429);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
