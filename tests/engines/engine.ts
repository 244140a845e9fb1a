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
  /**
   * Loads origin + path (or an absolute URL: the console's origin) and waits for the load
   * event; the document's HTTP status.
   */
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
  /** Gives the browser a cookie for the current page's host, HttpOnly and SameSite=Strict. */
  setCookie(name: string, value: string, secure: boolean): Promise<void>;
  /** The cookies the browser holds for the current page, with their flags. */
  cookies(): Promise<Cookie[]>;
  /**
   * A virtual platform authenticator with user verification (WebAuthn's WebDriver
   * automation), or null when the driver answers that it has none.
   */
  addAuthenticator(): Promise<Authenticator | null>;
  /** Uncaught exceptions, console errors, CSP violations and failed loads of this document. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

export type Cookie = { name: string; secure: boolean; httpOnly: boolean; sameSite: string };

export type Authenticator = {
  /** How many credentials (passkeys) the authenticator holds. */
  credentials(): Promise<number>;
  remove(): Promise<void>;
};

/** The script both engines inject before the page's own (see the file). */
export const recorderScript = readFileSync(path.join(import.meta.dirname, "recorder.js"), "utf8");

export const origin = `http://127.0.0.1:${process.env.E2E_PORT ?? 3210}`;

/** An absolute URL as it is, a path on the public site's origin. */
export function urlOf(pathOrUrl: string): string {
  return /^https?:/.test(pathOrUrl) ? pathOrUrl : `${origin}${pathOrUrl}`;
}

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
