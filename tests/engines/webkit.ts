import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

import { Capabilities, Key, WebDriver, type WebElement } from "selenium-webdriver";
import { Executor, HttpClient } from "selenium-webdriver/http/index.js";

import { type Engine, type Handle, urlOf, waitFor } from "./engine.ts";
import { centre, locate } from "./selectors.ts";
import { freePort } from "../../scripts/lib/server-process.ts";

export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
export const xvfbPath = "/usr/bin/Xvfb";
/** A toolbar-less WebKitGTK window (MiniBrowser's cannot be narrower than 447 px). */
const shellPath = path.join(import.meta.dirname, "webkit-shell.py");

function stop(child: ChildProcess | undefined) {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
}

/** A private X display: WebKitGTK has no headless mode. Xvfb picks a free display number. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const child = spawn(
    xvfbPath,
    ["-displayfd", "3", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
    {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    },
  );
  const display = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(`:${out.trim()}`);
    });
    child.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}`)));
    child.once("error", reject);
  });
  return { display, process: child };
}

/**
 * Debian's WebKitGTK through its WebKitWebDriver, with selenium-webdriver as the client:
 * a private Xvfb, a driver on a free port, and the bare window of webkit-shell.py as the
 * browser, which injects recorder.js and reports each document's HTTP status.
 */
export async function launchWebKit(size: { width: number; height: number }): Promise<Engine> {
  const xvfb = await startXvfb();
  let driverProcess: ChildProcess | undefined;
  try {
    const port = await freePort();
    // Its browser inherits DISPLAY.
    driverProcess = spawn(webkitDriverPath, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: "ignore",
    });
    const server = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${server}/status`)).ok, "WebKitWebDriver to listen");
    const capabilities = new Capabilities({
      "webkitgtk:browserOptions": {
        binary: shellPath,
        args: [`--width=${size.width}`, `--height=${size.height}`],
      },
    });
    const driver = await WebDriver.createSession(
      new Executor(new HttpClient(server)),
      capabilities,
    );
    return webkitEngine(driver, server, () => {
      stop(driverProcess);
      stop(xvfb.process);
    });
  } catch (error) {
    stop(driverProcess);
    stop(xvfb.process);
    throw error;
  }
}

function webkitEngine(driver: WebDriver, server: string, cleanUp: () => void): Engine {
  const element = (h: Handle) => h as unknown as WebElement;
  return {
    name: "WebKitGTK",
    async setViewport({ width, height }) {
      await driver.manage().window().setRect({ width, height });
      await waitFor(
        async () => (await driver.executeScript<number>("return window.innerWidth")) === width,
        `a ${width} px wide viewport`,
      );
    },
    async open(path) {
      await driver.get(urlOf(path));
      let status = 0;
      await waitFor(async () => {
        status = await driver.executeScript<number>("return window.__engineStatus ?? 0");
        return status > 0;
      }, `the status of ${path} from the shell`);
      return { status };
    },
    async run(fn, ...args) {
      return (await driver.executeScript(fn, ...args)) as never;
    },
    async find(query) {
      const found = await driver.executeScript<WebElement | null>(locate, query);
      return (found ?? null) as unknown as Handle | null;
    },
    async on(handle, fn) {
      return (await driver.executeScript(fn, element(handle))) as never;
    },
    async click(handle) {
      // As a visitor would: the control in the middle of the screen, clear of sticky bars.
      await driver.executeScript(centre, element(handle));
      await element(handle).click();
    },
    async type(handle, text) {
      await element(handle).sendKeys(text);
    },
    async pressTab() {
      await driver.actions().sendKeys(Key.TAB).perform();
    },
    async setCookie(name, value, secure) {
      await driver
        .manage()
        .addCookie({ name, value, path: "/", secure, httpOnly: true, sameSite: "Strict" });
    },
    async cookies() {
      return (await driver.manage().getCookies()).map(({ name, secure, httpOnly, sameSite }) => ({
        name,
        secure: secure ?? false,
        httpOnly: httpOnly ?? false,
        sameSite: sameSite ?? "",
      }));
    },
    async addAuthenticator() {
      // Asked on every run. WebKitWebDriver 2.50 answers 404 "unknown command": the driver
      // has no route for it, though libwebkit2gtk has Automation.addVirtualAuthenticator.
      const session = (await driver.getSession()).getId();
      const answer = await fetch(`${server}/session/${session}/webauthn/authenticator`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        }),
      });
      const { value } = (await answer.json()) as { value: { error?: string } };
      if (value.error === "unknown command") return null;
      throw new Error(
        `WebKitWebDriver answered ${answer.status} ${JSON.stringify(value)}: ` +
          "if it now has virtual authenticators, give this adapter one",
      );
    },
    async problems() {
      return driver.executeScript<string[]>("return window.__engineProblems ?? []");
    },
    async close() {
      try {
        await driver.quit();
      } finally {
        cleanUp();
      }
    },
  };
}
