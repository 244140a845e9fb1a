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
      register: {
        id: "register",
        parentId: "root",
        path: "register-interest",
        module: registerModule,
      },
      unsubscribe: {
        id: "unsubscribe",
        parentId: "root",
        path: "unsubscribe",
        module: registerModule,
      },
      confirm: {
        id: "confirm",
        parentId: "root",
        path: "register-interest/confirm",
        module: registerModule,
      },
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

describe("one origin policy behind a TLS-terminating proxy", () => {
  it("React Router alone refuses the https page's POST that arrives over http (the bug)", async () => {
    const { base, actionCalls } = await start({ guards: false });
    for (const p of paths) {
      const res = await post(base, p, { host: PUBLIC_HOST, origin: `https://${PUBLIC_HOST}` });
      expect(res.status, p).toBe(400);
    }
    expect(actionCalls).toEqual([]);
  });

  it("without TRUST_PROXY the request is plain http, so the https page's POST is refused (403) by our guard", async () => {
    const { base, actionCalls } = await start({});
    for (const p of paths) {
      const res = await post(base, p, { host: PUBLIC_HOST, origin: `https://${PUBLIC_HOST}` });
      expect(res.status, p).toBe(403);
      const plainHttp = await post(base, p, { host: PUBLIC_HOST, origin: `http://${PUBLIC_HOST}` });
      expect(plainHttp.status, p).toBe(200);
    }
    expect(actionCalls).toHaveLength(2);
  });

  it("with TRUST_PROXY and X-Forwarded-Proto/Host, both paths run the action", async () => {
    const { base, actionCalls } = await start({ trustProxy: 1 });
    for (const p of paths) {
      const res = await post(base, p, {
        host: "127.0.0.1:3000",
        "x-forwarded-proto": "https",
        "x-forwarded-host": PUBLIC_HOST,
        "x-forwarded-for": "203.0.113.7",
        origin: `https://${PUBLIC_HOST}`,
      });
      expect(res.status, p).toBe(200);
    }
    expect(actionCalls).toHaveLength(2);
  });

  it("accepts every ALLOWED_ORIGINS origin on both paths", async () => {
    const allowed = ["https://www.clinic.example.co.uk", "https://staging.example.net:8443"];
    const { base, actionCalls } = await start({ allowedOrigins: allowed });
    for (const origin of allowed) {
      for (const p of paths) {
        const res = await post(base, p, { host: PUBLIC_HOST, origin });
        expect(res.status, `${origin} ${p}`).toBe(200);
      }
    }
    expect(actionCalls).toHaveLength(4);
  });

  it("refuses a foreign origin with 403 before React Router, on both paths and behind a trusted proxy", async () => {
    for (const trustProxy of [0, 1]) {
      const { base, actionCalls } = await start({
        trustProxy,
        allowedOrigins: ["https://www.clinic.example.co.uk"],
      });
      for (const p of paths) {
        for (const origin of [
          "https://evil.example",
          "https://clinic.example.co.uk.evil.example",
        ]) {
          const res = await post(base, p, {
            host: PUBLIC_HOST,
            "x-forwarded-proto": "https",
            origin,
          });
          expect(res.status, `${origin} ${p}`).toBe(403);
        }
      }
      expect(actionCalls).toEqual([]);
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      server = undefined;
    }
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
      for (const p of ["/unsubscribe?token=t", "/unsubscribe.data?token=t"]) {
        const res = await post(base, p, { host: PUBLIC_HOST, origin });
        expect(res.status, `${origin} ${p}`).toBe(200);
      }
      const confirm = await post(base, "/register-interest/confirm?token=t", {
        host: PUBLIC_HOST,
        origin,
      });
      expect(confirm.status, origin).toBe(403);
    }
    expect(actionCalls).toEqual(
      Array.from({ length: 6 }, (_, i) => ["/unsubscribe", "/unsubscribe.data"][i % 2]),
    );
  });

  it("behind a TLS proxy too, and with the page's own https Origin (the button)", async () => {
    const { base, actionCalls } = await start({ trustProxy: 1 });
    const behindProxy = {
      host: "127.0.0.1:3000",
      "x-forwarded-proto": "https",
      "x-forwarded-host": PUBLIC_HOST,
    };
    expect((await post(base, "/unsubscribe?token=t", behindProxy)).status).toBe(200);
    const button = { ...behindProxy, origin: `https://${PUBLIC_HOST}` };
    expect((await post(base, "/unsubscribe?token=t", button)).status).toBe(200);
    expect((await post(base, "/unsubscribe.data?token=t", button)).status).toBe(200);
    expect(actionCalls).toHaveLength(3);
  });
});
