/**
 * The server's email worker in a thread of its own (decision 184): its queries, SMTP
 * writes and (on SQLite) synchronous commits no longer hold up the event loop that serves
 * visitors. It still gives way to them, reading how late their loop runs from shared memory.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

import { type Env, siteOrigin } from "../env.ts";
import { createLogger, type Logger, quietSqliteWarning } from "../logger.ts";
import { createMailWorker } from "./mail.ts";
import { abortSends, reachSends } from "./store.ts";
import { visitorDelaySampler } from "./worker.ts";
import { createMailer } from "../mail/transport.ts";
import { loadLinkKey } from "../shared/links.ts";

type ToThread =
  { type: "wake" } | { type: "stop" } | { type: "abort"; request: number; ids: string[] };
type FromThread = { type: "aborted"; request: number; held: string[] };
type Start = { mailThread: true; env: Env; late: Int32Array };

/** Visitors' loop busy this share of a second: requests queue though it keeps time. */
const BUSY_UTILISATION = 0.8;
/** How often visitors' loop delay is passed to the thread. */
const SHARE_EVERY_MS = 100;
/** Nice 10: the thread runs whenever visitors leave the processor to it. */
const BACKGROUND_NICENESS = 10;
/** A thread that failed starts again after this long. */
const RESTART_MS = 1_000;

/** The mail worker's start, wake and stop, with the worker in its own thread. */
export function mailThread(env: Env, logger: Logger) {
  const late = new Int32Array(new SharedArrayBuffer(4));
  const visitors = visitorDelaySampler(1_000, BUSY_UTILISATION);
  let share: NodeJS.Timeout | undefined;
  let thread: Worker | undefined;
  let stopping = false;
  let stopped: Promise<void> = Promise.resolve();
  let request = 0;
  const waiting = new Map<number, (held: string[]) => void>();
  const unreach = reachSends(async (ids) => {
    if (!thread) return [];
    const id = (request += 1);
    const answer = new Promise<string[]>((resolve) => waiting.set(id, resolve));
    post({ type: "abort", request: id, ids: [...ids] });
    return answer;
  });

  function post(message: ToThread) {
    thread?.postMessage(message);
  }

  function open() {
    const start: Start = { mailThread: true, env, late };
    const worker = new Worker(new URL(import.meta.url), { workerData: start });
    thread = worker;
    stopped = new Promise((resolve) => {
      worker.on("message", (message: FromThread) => {
        waiting.get(message.request)?.(message.held);
        waiting.delete(message.request);
      });
      worker.on("error", (error) => logger.error({ err: error }, "the mail thread failed"));
      worker.on("exit", (code) => {
        thread = undefined;
        for (const resolve of waiting.values()) resolve([]);
        waiting.clear();
        resolve();
        if (stopping) return;
        logger.warn(
          { code, restartInMs: RESTART_MS },
          "the mail thread stopped; starting it again",
        );
        setTimeout(() => {
          if (!stopping) open();
        }, RESTART_MS).unref();
      });
    });
  }

  return {
    start() {
      if (thread || stopping) return;
      visitors.start();
      share = setInterval(
        () => Atomics.store(late, 0, Math.round(visitors.sample())),
        SHARE_EVERY_MS,
      );
      share.unref();
      open();
    },
    wake: () => post({ type: "wake" }),
    async stop() {
      stopping = true;
      clearInterval(share);
      post({ type: "stop" });
      await stopped;
      visitors.stop();
      unreach();
    },
  };
}

/**
 * Lowers this thread's scheduling priority, where the system allows it per thread (Linux:
 * a thread id is a `setpriority` target), so that on a small machine the CPU goes to
 * visitors first. Elsewhere the thread keeps the process's priority.
 */
function yieldTheProcessor(logger: Logger) {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(threadId, BACKGROUND_NICENESS);
  } catch (error) {
    logger.debug({ reason: (error as Error).message }, "the mail thread keeps its priority");
  }
}

async function runThread({ env, late }: Start) {
  const port = parentPort;
  if (!port) return;
  quietSqliteWarning();
  // Only now: loading node:sqlite prints its warning.
  const { createDatabase } = await import("../db/database.ts");
  const logger = createLogger(env.LOG_LEVEL);
  yieldTheProcessor(logger);
  // The main thread has migrated already: a connection of its own, without a second pass.
  const { db, dialect } = createDatabase(env, logger);
  const mailer = createMailer(env, logger);
  const worker = createMailWorker({
    db,
    dialect,
    logger,
    mailer,
    siteOrigin: siteOrigin(env),
    linkKey: await loadLinkKey(db),
    options: { concurrency: env.MAIL_CONNECTIONS },
    visitorsLate: () => Atomics.load(late, 0),
  });
  port.on("message", (message: ToThread) => {
    if (message.type === "wake") worker.wake();
    else if (message.type === "abort") {
      void abortSends(message.ids).then((held) => {
        const answer: FromThread = { type: "aborted", request: message.request, held };
        port.postMessage(answer);
      });
    } else {
      void worker
        .stop()
        .then(() => mailer.close())
        .then(() => db.destroy())
        .finally(() => port.close());
    }
  });
  worker.start();
}

if (!isMainThread && (workerData as Partial<Start> | null)?.mailThread) {
  await runThread(workerData as Start);
}
