/**
 * Visitors at a fixed rate, in a thread of their own: a benchmark's own work on its main thread
 * (a mail server taking a hundred emails a second, say) must not be counted as the site's
 * latency. Requests go on schedule whether or not earlier ones were answered.
 */
import { Agent } from "node:https";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

import { formBody, newRegistration } from "./registrations.ts";
import { httpsFetch } from "./server-process.ts";

export type VisitKind = "pages" | "rendered" | "registrations";
export type Visit = { at: number; ms: number; kind: VisitKind; status: string };

type Plan = {
  origin: string;
  /** The proxy's root certificate (PEM), when the origin is https. */
  ca?: string;
  perSecond: number;
  pages: readonly string[];
};

/** Starts the visitors; `stop()` ends them and gives every visit once the last is answered. */
export function startVisitors(plan: Plan): { stop(): Promise<Visit[]> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: plan });
  const visits = new Promise<Visit[]>((resolve, reject) => {
    worker.once("message", (result: Visit[]) => resolve(result));
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const result = await visits;
      await worker.terminate();
      return result;
    },
  };
}

async function visit(plan: Plan, agent: Agent | undefined, pathname: string, body?: string) {
  const headers: Record<string, string> = body
    ? {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin: plan.origin,
      }
    : {};
  const method = body ? "POST" : "GET";
  if (plan.ca) {
    return (
      await httpsFetch(`${plan.origin}${pathname}`, plan.ca, { method, headers, body, agent })
    ).status;
  }
  const response = await fetch(`${plan.origin}${pathname}`, { method, headers, body });
  await response.arrayBuffer();
  return response.status;
}

async function run(plan: Plan): Promise<Visit[]> {
  let stopped = false;
  parentPort?.once("message", () => {
    stopped = true;
  });
  const agent = plan.ca ? new Agent({ keepAlive: true, ca: plan.ca }) : undefined;
  const visits: Visit[] = [];
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let n = 0; !stopped; n += 1) {
    const wait = started + (n * 1000) / plan.perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (stopped) break;
    const page = plan.pages[n % plan.pages.length] ?? "/";
    // Of ten: six prerendered pages, three rendered by the server (a query string), one registration.
    const kind: VisitKind = n % 10 === 0 ? "registrations" : n % 10 <= 3 ? "rendered" : "pages";
    const at = Date.now();
    const t0 = performance.now();
    const answer =
      kind === "registrations"
        ? visit(plan, agent, "/register-interest", formBody(newRegistration("bench-visitor")))
        : visit(plan, agent, kind === "rendered" ? `${page}?from=bench` : page);
    const done = answer.then(
      (status) =>
        void visits.push({ at, ms: performance.now() - t0, kind, status: String(status) }),
      (error: unknown) =>
        void visits.push({
          at,
          ms: performance.now() - t0,
          kind,
          status: (error as Error).message,
        }),
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  }
  await Promise.all(inFlight);
  agent?.destroy();
  return visits;
}

if (!isMainThread && parentPort) {
  parentPort.postMessage(await run(workerData as Plan));
}
