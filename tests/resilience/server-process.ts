import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Starts the production server (node server/index.ts over the production build) as
 * a child process on a free port, for tests that need their own server (other
 * settings than the suite's, a signal, a restart, or its logs) and for the scripts
 * that measure or photograph it (bench-register, screenshots, audit): the one way
 * anything here starts a server.
 */
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
  /** Listen on a fixed port (a restart keeping its address); a free one by default. */
  port?: number;
  /**
   * Keep every line the server writes in `output` (the default); false keeps only the
   * lines up to "listening", for long runs whose request logs would fill the memory.
   */
  keepOutput?: boolean;
};

const root = path.resolve(import.meta.dirname, "..", "..");

export function freshDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "clinic-resilience-"));
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
    const timer = setTimeout(() => {
      // Not left running behind a failed start.
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output.join("\n")}`));
    }, 20_000);
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
