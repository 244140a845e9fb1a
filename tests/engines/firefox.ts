import puppeteer, { type ElementHandle, type Page } from "puppeteer-core";

import { type Engine, type Handle, recorderScript, urlOf } from "./engine.ts";
import { Marionette } from "./marionette.ts";
import { centre, locate } from "./selectors.ts";
import { freePort } from "../../scripts/lib/server-process.ts";

export const firefoxPath = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

/**
 * Debian's Firefox ESR, headless, driven over WebDriver BiDi by puppeteer-core (which
 * downloads no browser). One private profile per launch, so every engine run starts with
 * empty storage. Marionette listens too, for the virtual authenticator (./marionette.ts).
 */
export async function launchFirefox(size: { width: number; height: number }): Promise<Engine> {
  const marionettePort = await freePort();
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: firefoxPath,
    headless: true,
    defaultViewport: size,
    args: ["--marionette"],
    extraPrefsFirefox: {
      "marionette.port": marionettePort,
      // Without it Firefox sends the ceremony to USB keys and the virtual one never answers.
      "security.webauth.webauthn_enable_softtoken": true,
      "security.webauth.webauthn_enable_usbtoken": false,
    },
  });
  let marionette: Marionette | undefined;
  const page: Page = await browser.newPage();
  await page.evaluateOnNewDocument(recorderScript);
  // Errors Firefox reports itself (a refused script, a failed fetch) besides the recorder's.
  let browserErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") browserErrors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => browserErrors.push(`pageerror: ${String(error)}`));

  const handle = (h: Handle) => h as unknown as ElementHandle<Element>;

  return {
    name: "Firefox ESR",
    async setViewport(next) {
      await page.setViewport(next);
    },
    async open(path) {
      browserErrors = [];
      const response = await page.goto(urlOf(path), { waitUntil: "load" });
      return { status: response?.status() ?? 0 };
    },
    async run(fn, ...args) {
      return (await page.evaluate(fn as (...a: unknown[]) => unknown, ...args)) as never;
    },
    async find(query) {
      const found = await page.evaluateHandle(locate, query);
      const element = found.asElement();
      if (!element) {
        await found.dispose();
        return null;
      }
      return element as unknown as Handle;
    },
    async on(element, fn) {
      return (await handle(element).evaluate(fn)) as never;
    },
    async click(element) {
      await handle(element).evaluate(centre);
      await handle(element).click();
    },
    async type(element, text) {
      await handle(element).type(text);
    },
    async pressTab() {
      await page.keyboard.press("Tab");
    },
    async setCookie(name, value, secure) {
      const { hostname } = new URL(page.url());
      await page.setCookie({
        name,
        value,
        domain: hostname,
        path: "/",
        secure,
        httpOnly: true,
        sameSite: "Strict",
      });
    },
    async cookies() {
      return (await page.cookies()).map(({ name, secure, httpOnly, sameSite }) => ({
        name,
        secure,
        httpOnly: httpOnly ?? false,
        sameSite: sameSite ?? "",
      }));
    },
    async addAuthenticator() {
      marionette ??= await Marionette.connect(marionettePort);
      return marionette.addAuthenticator();
    },
    async problems() {
      const recorded = await page.evaluate(
        () => (window as unknown as { __engineProblems?: string[] }).__engineProblems ?? [],
      );
      // A console.error call appears in both lists; the journeys only ask for none.
      return [...recorded, ...browserErrors];
    },
    async close() {
      marionette?.close();
      await browser.close();
    },
  };
}
