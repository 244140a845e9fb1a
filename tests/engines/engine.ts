import { readFileSync } from "node:fs";
import path from "node:path";

import { type Query } from "./selectors.ts";

/**
 * What the journeys need from a browser, over two drivers: Firefox ESR through
 * puppeteer-core (WebDriver BiDi, tests/engines/firefox.ts) and WebKitGTK through
 * selenium-webdriver (classic WebDriver, tests/engines/webkit.ts). Clicks and keys are
 * the driver's own input actions, so the page sees trusted events as from a visitor.
 */
/** An element as the driver holds it (a puppeteer ElementHandle, a selenium WebElement). */
export type Handle = { readonly __driverHandle: true };

export interface Engine {
  readonly name: "Firefox ESR" | "WebKitGTK";
  setViewport(size: { width: number; height: number }): Promise<void>;
  /** Loads origin + path and waits for the load event; the document's HTTP status. */
  open(path: string): Promise<{ status: number }>;
  /** Runs a self-contained function in the page and returns its (JSON) result. */
  run<A extends unknown[], T>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>>;
  /** The first visible element the query matches (tests/engines/selectors.ts), or null. */
  find(query: Query): Promise<Handle | null>;
  /** Runs a function in the page on an element from `find`. */
  on<T>(element: Handle, fn: (el: Element) => T): Promise<Awaited<T>>;
  click(element: Handle): Promise<void>;
  type(element: Handle, text: string): Promise<void>;
  pressTab(): Promise<void>;
  /** Uncaught exceptions, console errors, CSP violations and failed loads of this document. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

/** The script both engines inject before the page's own (see the file). */
export const recorderScript = readFileSync(path.join(import.meta.dirname, "recorder.js"), "utf8");

export const origin = `http://127.0.0.1:${process.env.E2E_PORT ?? 3210}`;

/** Polls `check` until it returns true (errors during a navigation count as false). */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeout = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `Timed out after ${timeout} ms waiting for: ${what}` +
      (lastError ? ` (last error: ${String(lastError)})` : ""),
  );
}

/** Waits for a visible element and returns it. */
export async function visible(engine: Engine, query: Query, timeout?: number): Promise<Handle> {
  let found: Handle | null = null;
  await waitFor(
    async () => (found = await engine.find(query)) !== null,
    `a visible ${JSON.stringify(query)}`,
    timeout,
  );
  return found as unknown as Handle;
}

/** Waits until nothing visible matches the query. */
export async function hidden(engine: Engine, query: Query): Promise<void> {
  await waitFor(
    async () => (await engine.find(query)) === null,
    `no visible ${JSON.stringify(query)}`,
  );
}
