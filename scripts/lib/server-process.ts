/**
 * The one way anything here starts the site: the production server (node server/index.ts
 * over the production build) as a child process, and Caddy in front of it as a clinic
 * deploys it. Tests use it when they need their own server (other settings, a signal, a
 * restart, its logs); benchmarks, the audit and screenshots use it to measure or
 * photograph the site.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { type Agent, request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** A port nothing listens on now, so a server can appear there later (refused until then). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** CPU time (user + system) a process has used so far, in ms: Linux /proc, 10 ms ticks. */
export function cpuTimeMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export type ServerProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Every line the server wrote to stdout and stderr so far. */
  output: string[];
  dataDir: string;
  /** Sends a signal and waits for the process to exit; returns its exit code or signal. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
};

export type StartOptions = {
  /** Settings over the defaults below; LOG_LEVEL must stay at info or lower (the "listening" line). */
  env?: Record<string, string>;
  /** Reuse a data directory (a restart after a crash); a fresh temporary one by default. */
  dataDir?: string;
  /** A fixed port (a restart keeping its address); a free one by default. */
  port?: number;
  /** false keeps only the lines up to "listening": a long run's request logs would fill the memory. */
  keepOutput?: boolean;
};

export function freshDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "clinic-server-"));
}

export async function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? freshDataDir();
  const child = spawn(process.execPath, ["server/index.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      HOST: "127.0.0.1",
      PORT: String(options.port ?? 0),
      // Every server also opens the staff console's listener: on a free port, unless told.
      CONSOLE_PORT: "0",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_MINUTE: "1000000",
      RATE_LIMIT_PER_DAY: "1000000",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<number | string | null>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal));
  });

  const port = await new Promise<number>((resolve, reject) => {
    // About a second on a quiet machine; 20 s was not enough when the end-to-end run starts
    // every worker's browser and server at once.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output.join("\n")}`));
    }, 60_000);
    let listening = false;
    const onLine = (line: string) => {
      if (listening && options.keepOutput === false) return;
      output.push(line);
      if (!line.includes('"listening"')) return;
      try {
        const entry = JSON.parse(line) as { port?: number };
        if (typeof entry.port === "number") {
          listening = true;
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // Not a JSON log line.
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) onLine(line);
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${String(code)}) before listening:\n${output.join("\n")}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output,
    dataDir,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
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

export const caddyPath = process.env.CADDY_PATH ?? "caddy";

/**
 * Caddy with the shipped deploy/Caddyfile, terminating TLS with a certificate from its
 * internal CA (made at start-up in a temporary directory), in front of app servers.
 */
export type Caddy = {
  /** The public origin, e.g. https://localhost:40123 */
  origin: string;
  host: string;
  /** The root certificate that signed the site's certificate (PEM). */
  ca: string;
  /** The console's origin on the same port under its own name, when `console` was given. */
  consoleOrigin?: string;
  output: string[];
  stop(): Promise<void>;
};

/**
 * `port`: chosen beforehand (freePort) when the app servers must know the public origin.
 * `console`: the app servers' console listeners, served as production serves them: on
 * the same port under their own name, console.localhost (a loopback name to browsers).
 */
export async function startCaddy(
  upstreams: string[],
  options: { port?: number; console?: string[] } = {},
): Promise<Caddy> {
  const port = options.port ?? (await freePort());
  const home = mkdtempSync(path.join(tmpdir(), "clinic-caddy-"));
  const host = `localhost:${port}`;
  const consoleHost = `console.localhost:${port}`;
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
        // Without console listeners, the console's name gets a port of its own, so that two
        // Caddies never share one, and no upstream.
        CONSOLE_ADDRESS: options.console ? consoleHost : `localhost:${await freePort()}`,
        CONSOLE_UPSTREAMS: options.console?.join(" ") ?? "127.0.0.1:9",
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
    consoleOrigin: options.console ? `https://${consoleHost}` : undefined,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
