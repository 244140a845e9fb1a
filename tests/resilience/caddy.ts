import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { type Agent, request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Caddy as a clinic deploys it: the shipped deploy/Caddyfile, terminating TLS with a
 * certificate Caddy makes at start-up (its internal CA, in a temporary directory),
 * in front of one or more app servers.
 */
export type Caddy = {
  /** The public origin, e.g. https://localhost:40123 */
  origin: string;
  host: string;
  /** The root certificate that signed the site's certificate (PEM). */
  ca: string;
  output: string[];
  stop(): Promise<void>;
};

const root = path.resolve(import.meta.dirname, "..", "..");
export const caddyPath = process.env.CADDY_PATH ?? "caddy";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type HttpsResult = { status: number; headers: Record<string, string>; body: string };

/** One HTTPS request that trusts `ca` (fetch cannot be given a CA without undici). */
export function httpsFetch(
  url: string,
  ca: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<HttpsResult> {
  return new Promise((resolve, reject) => {
    const body = init.body ?? "";
    const req = httpsRequest(
      url,
      {
        method: init.method ?? "GET",
        ca,
        agent: init.agent ?? false,
        headers: body
          ? { "content-length": String(Buffer.byteLength(body)), ...init.headers }
          : init.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).map(([k, v]) => [
                k,
                Array.isArray(v) ? v.join(", ") : String(v),
              ]),
            ),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A free port for Caddy, chosen before the app servers start when they must know the public origin. */
export const freeCaddyPort = freePort;

export async function startCaddy(
  upstreams: string[],
  options: { port?: number } = {},
): Promise<Caddy> {
  const port = options.port ?? (await freePort());
  const home = mkdtempSync(path.join(tmpdir(), "clinic-caddy-"));
  const host = `localhost:${port}`;
  const child: ChildProcess = spawn(
    caddyPath,
    ["run", "--config", path.join(root, "deploy", "Caddyfile"), "--adapter", "caddyfile"],
    {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        XDG_DATA_HOME: path.join(home, "data"),
        XDG_CONFIG_HOME: path.join(home, "config"),
        SITE_ADDRESS: host,
        CADDY_TLS: "internal",
        UPSTREAMS: upstreams.join(" "),
        // The console's host (decision 133), unused here: a port of its own, so that two
        // Caddies never share one, and no upstream.
        CONSOLE_ADDRESS: `localhost:${await freePort()}`,
        CONSOLE_UPSTREAMS: "127.0.0.1:9",
        // No port 80 redirect listener, and no attempt to add the test CA to the system.
        CADDY_GLOBAL_OPTIONS: "auto_https disable_redirects\n\tskip_install_trust",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => output.push(...chunk.split("\n").filter(Boolean)));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));

  const caFile = path.join(home, "data", "caddy", "pki", "authorities", "local", "root.crt");
  const origin = `https://${host}`;
  const deadline = Date.now() + 30_000;
  let ca = "";
  for (;;) {
    if (exitedEarly) throw new Error(`caddy exited:\n${output.join("\n")}`);
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`caddy did not serve ${origin}/healthz:\n${output.join("\n")}`);
    }
    try {
      ca ||= readFileSync(caFile, "utf8");
      const health = await httpsFetch(`${origin}/healthz`, ca);
      if (health.status === 200) break;
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    origin,
    host,
    ca,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
