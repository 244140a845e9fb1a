import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { createContext, type ServerBuild } from "react-router";
import { expect, it, onTestFinished, vi } from "vitest";

import { createApp } from "./app.ts";
import { createLogger } from "./logger.ts";
import { createRegistrationGuards } from "./registrations/guards.ts";
import type { RegistrationService } from "../contract/registrations.ts";

/**
 * The origin policy end to end inside one process: our guard in front of React Router's
 * real request handler, over a small build whose action records each call. The
 * requests are shaped as they arrive from a TLS-terminating proxy (docs/decisions/068).
 */

const PUBLIC_HOST = "clinic.example.co.uk";

function fakeBuild(actionCalls: string[]): ServerBuild {
  const action = ({ request }: { request: Request }) => {
    actionCalls.push(new URL(request.url).pathname);
    return { ok: true };
  };
  const module = { default: () => null, action };
  const child = (id: string, path = id) => ({ id, parentId: "root", path, module });
  return {
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers) =>
          new Response(`<!doctype html><p>rendered ${status}</p>`, { status, headers }),
        appServicesContext: createContext(),
      },
    },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      register: child("register", "register-interest"),
      unsubscribe: child("unsubscribe"),
      confirm: child("confirm", "register-interest/confirm"),
    },
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: {},
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

type StartOptions = { trustProxy?: number; allowedOrigins?: string[]; perMinute?: number };

/** The app on a free port; `guards: false` leaves React Router's own check alone. */
async function start(options: StartOptions & { guards?: false }) {
  const actionCalls: string[] = [];
  const app = createApp({
    build: fakeBuild(actionCalls),
    clientDir: mkdtempSync(path.join(tmpdir(), "clinic-app-test-")),
    logger: createLogger("silent"),
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
  const server = app.listen(0, "127.0.0.1");
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, actionCalls };
}

/**
 * A POST as the proxy forwards it: plain http, the public Host, the browser's headers
 * (node:http, because fetch does not let a caller set Host). Resolves with the status.
 */
function post(base: string, pathname: string, headers: Record<string, string>): Promise<number> {
  const body = "name=Sam";
  const type = "application/x-www-form-urlencoded";
  const all = { "content-type": type, "content-length": `${body.length}`, ...headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${pathname}`, { method: "POST", headers: all }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const httpsPage = { host: PUBLIC_HOST, origin: `https://${PUBLIC_HOST}` };
const behindProxy = {
  host: "127.0.0.1:3000",
  "x-forwarded-proto": "https",
  "x-forwarded-host": PUBLIC_HOST,
};
const allowed = ["https://www.clinic.example.co.uk", "https://staging.example.net:8443"];

type Sent = [pathname: string, headers: Record<string, string>, status: number];
/** The same request to the form's page and to its .data path, each answered with `status`. */
const both = (headers: Record<string, string>, status: number): Sent[] =>
  ["/register-interest", "/register-interest.data"].map((p): Sent => [p, headers, status]);
const foreign = (origin: string) =>
  both({ host: PUBLIC_HOST, "x-forwarded-proto": "https", origin }, 403);
const unsubscribe = (headers: Record<string, string>): Sent[] =>
  ["/unsubscribe", "/unsubscribe.data"].map((p): Sent => [`${p}?token=t`, headers, 200]);

// Each request gets its status, in order; then the action has run for exactly the 200s.
it.each<[title: string, options: Parameters<typeof start>[0], requests: Sent[]]>([
  [
    "origin policy behind a TLS proxy: React Router alone refuses the https page's POST that arrives over http (the bug)",
    { guards: false },
    both(httpsPage, 400),
  ],
  [
    "origin policy behind a TLS proxy: without TRUST_PROXY the request is plain http, so the https page's POST is refused (403) by our guard",
    {},
    [...both(httpsPage, 403), ...both({ host: PUBLIC_HOST, origin: `http://${PUBLIC_HOST}` }, 200)],
  ],
  [
    "origin policy behind a TLS proxy: with TRUST_PROXY and X-Forwarded-Proto/Host, both paths run the action",
    { trustProxy: 1 },
    both({ ...behindProxy, "x-forwarded-for": "203.0.113.7", origin: httpsPage.origin }, 200),
  ],
  [
    "origin policy behind a TLS proxy: accepts every ALLOWED_ORIGINS origin on both paths",
    { allowedOrigins: allowed },
    allowed.flatMap((origin) => both({ host: PUBLIC_HOST, origin }, 200)),
  ],
  ...[0, 1].map((trustProxy): [string, StartOptions, Sent[]] => [
    `origin policy behind a TLS proxy: refuses a foreign origin with 403 before React Router, on both paths (trust proxy ${trustProxy})`,
    { trustProxy, allowedOrigins: [allowed[0]!] },
    [...foreign("https://evil.example"), ...foreign("https://clinic.example.co.uk.evil.example")],
  ]),
  [
    // As a mail provider sends it: no Origin, no Sec-Fetch-Site, the token in the query.
    "RFC 8058 one-click unsubscribe: runs the action for a POST without Origin, through the guards and React Router's own check",
    { perMinute: 1 },
    Array.from({ length: 5 }, (): Sent => [
      "/unsubscribe?token=u.abc.sig",
      { host: PUBLIC_HOST },
      200,
    ]),
  ],
  [
    "RFC 8058 one-click unsubscribe: runs the action whatever the Origin says, through React Router's check too; confirming keeps the check",
    {},
    ["https://mail.example", "null", "not an origin"].flatMap((origin): Sent[] => {
      const headers = { host: PUBLIC_HOST, origin };
      return [...unsubscribe(headers), ["/register-interest/confirm?token=t", headers, 403]];
    }),
  ],
  [
    "RFC 8058 one-click unsubscribe: behind a TLS proxy too, and with the page's own https Origin (the button)",
    { trustProxy: 1 },
    [
      ["/unsubscribe?token=t", behindProxy, 200],
      ...unsubscribe({ ...behindProxy, origin: httpsPage.origin }),
    ],
  ],
])("%s", async (_title, options, requests) => {
  const { base, actionCalls } = await start(options);
  for (const [pathname, headers, status] of requests) {
    expect(await post(base, pathname, headers), `${headers.origin} ${pathname}`).toBe(status);
  }
  const ran = requests.filter(([, , status]) => status === 200);
  expect(actionCalls).toEqual(ran.map(([pathname]) => pathname.split("?")[0]));
});
