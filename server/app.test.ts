import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { createContext, type ServerBuild } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";

import { createApp } from "./app.ts";
import { createLogger } from "./logger.ts";
import { createRegistrationGuards } from "./registrations/guards.ts";
import type { RegistrationService } from "../contract/registrations.ts";

/**
 * The origin policy end to end inside one process: our guard in front of React Router's
 * real request handler, over a two-route build whose action records each call. The
 * requests are shaped as they arrive from a TLS-terminating proxy (docs/decisions/068).
 */

const PUBLIC_HOST = "clinic.example.co.uk";

function fakeBuild(actionCalls: string[]): ServerBuild {
  const rootModule = { default: () => null };
  const registerModule = {
    default: () => null,
    action: ({ request }: { request: Request }) => {
      actionCalls.push(new URL(request.url).pathname);
      return { ok: true };
    },
  };
  const child = (id: string, path = id) => ({ id, parentId: "root", path, module: registerModule });
  return {
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers) =>
          new Response(`<!doctype html><p>rendered ${status}</p>`, { status, headers }),
        appServicesContext: createContext(),
      } as unknown as ServerBuild["entry"]["module"],
    },
    routes: {
      root: { id: "root", path: "", module: rootModule },
      register: child("register", "register-interest"),
      unsubscribe: child("unsubscribe"),
      confirm: child("confirm", "register-interest/confirm"),
    } as unknown as ServerBuild["routes"],
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: {},
      url: "/manifest.js",
      version: "test",
    } as unknown as ServerBuild["assets"],
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {} as ServerBuild["future"],
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  };
}

type Server = ReturnType<ReturnType<typeof createApp>["listen"]>;
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function start(options: {
  trustProxy?: number;
  allowedOrigins?: string[];
  guards?: boolean;
  perMinute?: number;
}) {
  const actionCalls: string[] = [];
  const logger = createLogger("silent");
  const app = createApp({
    build: fakeBuild(actionCalls),
    clientDir: mkdtempSync(path.join(tmpdir(), "clinic-app-test-")),
    logger,
    services: { registrations: {} as RegistrationService },
    trustProxy: options.trustProxy ?? 0,
    registrationGuards:
      options.guards === false
        ? []
        : createRegistrationGuards({
            perMinute: options.perMinute ?? 100,
            perDay: 1000,
            allowedOrigins: options.allowedOrigins ?? [],
            logger: { warn: vi.fn(), error: vi.fn() },
          }),
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server?.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, actionCalls };
}

/**
 * A POST as the proxy forwards it: plain http, the public Host, the browser's headers
 * (node:http, because fetch does not let a caller set Host).
 */
function post(
  base: string,
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number }> {
  const body = "name=Sam";
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${pathname}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(body.length),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const paths = ["/register-interest", "/register-interest.data"] as const;
const httpsPage = { host: PUBLIC_HOST, origin: `https://${PUBLIC_HOST}` };
const behindProxy = {
  host: "127.0.0.1:3000",
  "x-forwarded-proto": "https",
  "x-forwarded-host": PUBLIC_HOST,
};
const allowed = ["https://www.clinic.example.co.uk", "https://staging.example.net:8443"];

type Sent = [headers: Record<string, string>, status: number];
type Case = [title: string, options: Parameters<typeof start>[0], requests: Sent[], calls: number];
const sent = (headers: Record<string, string>, status: number): Sent => [headers, status];
const foreign = (origin: string) =>
  sent({ host: PUBLIC_HOST, "x-forwarded-proto": "https", origin }, 403);

describe("one origin policy behind a TLS-terminating proxy", () => {
  // Each request goes to both paths, and gets its status; then so many actions have run.
  it.each<Case>([
    [
      "React Router alone refuses the https page's POST that arrives over http (the bug)",
      { guards: false },
      [sent(httpsPage, 400)],
      0,
    ],
    [
      "without TRUST_PROXY the request is plain http, so the https page's POST is refused (403) by our guard",
      {},
      [sent(httpsPage, 403), sent({ host: PUBLIC_HOST, origin: `http://${PUBLIC_HOST}` }, 200)],
      2,
    ],
    [
      "with TRUST_PROXY and X-Forwarded-Proto/Host, both paths run the action",
      { trustProxy: 1 },
      [sent({ ...behindProxy, "x-forwarded-for": "203.0.113.7", origin: httpsPage.origin }, 200)],
      2,
    ],
    [
      "accepts every ALLOWED_ORIGINS origin on both paths",
      { allowedOrigins: allowed },
      allowed.map((origin) => sent({ host: PUBLIC_HOST, origin }, 200)),
      4,
    ],
    ...[0, 1].map((trustProxy): Case => [
      `refuses a foreign origin with 403 before React Router, on both paths (trust proxy ${trustProxy})`,
      { trustProxy, allowedOrigins: [allowed[0]!] },
      [foreign("https://evil.example"), foreign("https://clinic.example.co.uk.evil.example")],
      0,
    ]),
  ])("%s", async (_title, options, requests, calls) => {
    const { base, actionCalls } = await start(options);
    for (const p of paths) {
      for (const [headers, status] of requests) {
        expect((await post(base, p, headers)).status, `${headers.origin} ${p}`).toBe(status);
      }
    }
    expect(actionCalls).toHaveLength(calls);
  });
});

describe("RFC 8058 one-click unsubscribe", () => {
  it("runs the action for a POST without Origin, through the guards and React Router's own check", async () => {
    const { base, actionCalls } = await start({ perMinute: 1 });
    for (let i = 0; i < 5; i++) {
      // As a mail provider sends it: no Origin, no Sec-Fetch-Site, the token in the query.
      const res = await post(base, "/unsubscribe?token=u.abc.sig", { host: PUBLIC_HOST });
      expect(res.status).toBe(200);
    }
    expect(actionCalls).toEqual(Array.from({ length: 5 }, () => "/unsubscribe"));
  });

  it("runs the action whatever the Origin says, through React Router's check too; confirming keeps the check", async () => {
    const { base, actionCalls } = await start({});
    for (const origin of ["https://mail.example", "null", "not an origin"]) {
      const headers = { host: PUBLIC_HOST, origin };
      for (const p of ["/unsubscribe?token=t", "/unsubscribe.data?token=t"]) {
        expect((await post(base, p, headers)).status, `${origin} ${p}`).toBe(200);
      }
      const confirm = await post(base, "/register-interest/confirm?token=t", headers);
      expect(confirm.status, origin).toBe(403);
    }
    expect(actionCalls).toEqual(
      Array.from({ length: 6 }, (_, i) => ["/unsubscribe", "/unsubscribe.data"][i % 2]),
    );
  });

  it("behind a TLS proxy too, and with the page's own https Origin (the button)", async () => {
    const { base, actionCalls } = await start({ trustProxy: 1 });
    expect((await post(base, "/unsubscribe?token=t", behindProxy)).status).toBe(200);
    const button = { ...behindProxy, origin: httpsPage.origin };
    expect((await post(base, "/unsubscribe?token=t", button)).status).toBe(200);
    expect((await post(base, "/unsubscribe.data?token=t", button)).status).toBe(200);
    expect(actionCalls).toHaveLength(3);
  });
});
