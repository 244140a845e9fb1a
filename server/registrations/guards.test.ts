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

const cleanup: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const task of cleanup.splice(0).reverse()) await task();
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
  // Every POST path the tests use (/register-interest, its .data, /unsubscribe and the
  // spellings of it, /register-interest/confirm) reaches this handler.
  app.post(/.*/, async (req, res) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    res.json({ received: body });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
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
const status = async (...request: Parameters<typeof post>) => (await post(...request)).status;

/** The statuses of these POSTs, sent one after another. */
async function postAll(base: string, paths: string[], headers = {}, body?: string) {
  const all = [];
  for (const path of paths) all.push(await status(base, path, headers, body));
  return all;
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
    const evil = { origin: "https://evil.example" };
    const page = await post(base, "/register-interest", evil);
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/only accept registrations sent from our own website/);
    // The .data path of a React Router form, and the island's fetch asking for JSON.
    for (const [path, headers] of [
      ["/register-interest.data", evil],
      ["/register-interest", { ...evil, accept: "application/json" }],
    ] as const) {
      const data = await post(base, path, headers);
      expect(data.status).toBe(403);
      expect(await data.json()).toMatchObject({ error: expect.stringMatching(/own website/) });
    }
  });

  it("compares the scheme too: an https Origin on an http site is refused, with a hint in the log", async () => {
    const warn = vi.fn();
    const base = await start({ logger: { warn, error: vi.fn() } });
    const https = base.replace("http:", "https:");
    expect(await status(base, "/register-interest", { origin: https })).toBe(403);
    expect(warn).toHaveBeenCalledWith(
      { origin: https },
      expect.stringContaining("set TRUST_PROXY"),
    );
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
  ])("%s: %i", async (_, expected, headers, options = []) => {
    const base = await start(...options);
    expect(await status(base, "/register-interest", headers)).toBe(expected);
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
    const headers = {
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
      "transfer-encoding": "chunked",
    };
    const code = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/register-interest`, { method: "POST", headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("name=");
      req.end("x".repeat(100));
    });
    expect(code).toBe(411);
  });
});

describe("rate limits", () => {
  it("allows the per-minute number of POSTs, then answers 429 with Retry-After", async () => {
    const base = await start({ perMinute: 2 });
    const three = Array<string>(3).fill("/register-interest");
    expect(await postAll(base, three, { origin: base })).toEqual([200, 200, 429]);

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
    const both = ["/register-interest", "/register-interest.data"];
    expect(await postAll(base, [...both, ...both], { origin: base })).toEqual([200, 200, 200, 429]);
    const limited = await post(base, "/register-interest", { origin: base });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await limited.text()).toMatch(/Please wait (an hour|\d+ hours)/);
  });

  it("does not count refused foreign POSTs against the visitor's allowance", async () => {
    const base = await start({ perMinute: 1 });
    await post(base, "/register-interest", { origin: "https://evil.example" });
    expect(await status(base, "/register-interest", { origin: base })).toBe(200);
  });
});

describe("the unsubscribe POST", () => {
  const oneClick = "List-Unsubscribe=One-Click";

  it("is not counted against the registration limits, and does not use them up", async () => {
    const base = await start({ perMinute: 2, perDay: 3, unsubscribePerMinute: 100 });
    // A mail provider's one-clicks: no Origin, many from one address.
    const paths = ["/unsubscribe?token=u.a.b", "/unsubscribe/", "/unsubscribe.data"];
    const oneClicks = Array.from({ length: 20 }, (_, i) => paths[i % 3] ?? "");
    expect(await postAll(base, oneClicks, {}, oneClick)).toEqual(Array<number>(20).fill(200));
    // The visitor's registration allowance is untouched by them.
    const registrations = Array<string>(3).fill("/register-interest");
    expect(await postAll(base, registrations, { origin: base })).toEqual([200, 200, 429]);
  });

  it("has its own limit per address, with a page that speaks of unsubscribing", async () => {
    const base = await start({ perMinute: 100, unsubscribePerMinute: 3 });
    const unsubscribes = Array<string>(4).fill("/unsubscribe");
    expect(await postAll(base, unsubscribes, {}, oneClick)).toEqual([200, 200, 200, 429]);
    const limited = await post(base, "/unsubscribe", {}, oneClick);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toMatch(/many unsubscribe requests/);
    // Registrations are counted apart.
    expect(await status(base, "/register-interest", { origin: base })).toBe(200);
  });

  it("is exempt only at its exact paths: another spelling counts as a registration", async () => {
    const base = await start({ perMinute: 1, unsubscribePerMinute: 100 });
    const paths = ["/Unsubscribe", "/Unsubscribe", "/unsubscribe"];
    expect(await postAll(base, paths, {}, oneClick)).toEqual([200, 429, 200]);
  });

  it("takes any Origin or none, the token being the authority", async () => {
    const base = await start({ unsubscribePerMinute: 100 });
    for (const origin of ["https://mail.example", "null", "not an origin", base]) {
      expect(await status(base, "/unsubscribe", { origin }, oneClick), origin).toBe(200);
    }
    const crossSite = { "sec-fetch-site": "cross-site" };
    expect(await status(base, "/unsubscribe", crossSite, oneClick)).toBe(200);
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
 * The shared rate limit against a real Redis (TEST_REDIS_URL; CI sets it): a Redis that
 * goes away lets registrations through rather than failing them (docs/decisions/070).
 * Two servers counting together is shown in their running shape, in tests/e2e/proxy.spec.ts.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)("rate limits shared through Redis", () => {
  /** An app server allowing 5 registrations a minute, counted in `storeFor`'s stores. */
  const instance = (
    storeFor: RateLimitStores["storeFor"],
    logger = { warn: vi.fn(), error: vi.fn() },
  ) => start({ perMinute: 5, storeFor, logger });
  /** A registration as a script would send it: no Origin, no Sec-Fetch-Site. */
  const postTo = (base: string) => status(base, "/register-interest", {});

  it("each server alone would have allowed 5 (the in-memory store is per process)", async () => {
    const a = await instance(() => undefined);
    const b = await instance(() => undefined);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await postTo(i % 2 === 0 ? a : b));
    expect(statuses).toEqual(Array<number>(10).fill(200));
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
    const logger = { warn: vi.fn(), error: vi.fn() };
    const base = await instance(stores.storeFor, logger);

    expect(await postTo(base)).toBe(200);
    await relay.down();
    const during = await postAll(base, Array<string>(8).fill("/register-interest"));
    expect(during).toEqual(Array<number>(8).fill(200));
    expect(logger.error).toHaveBeenCalled();

    await relay.up();
    // The client reconnects in the background; then counting resumes and the limit holds.
    await vi.waitFor(
      async () => {
        expect(await postTo(base)).toBe(429);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
