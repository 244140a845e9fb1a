import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
/** The staff console's listener of the same server (docs/decisions/133); passkeys need "localhost". */
const consolePort = Number(process.env.E2E_CONSOLE_PORT ?? port + 1);
export const consoleURL = `http://localhost:${consolePort}`;
// Set once in the runner and inherited by the workers, so specs can read the database.
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "clinic-e2e-")));

/** Debian's Chromium, with the flags these machines need (no sandbox as root, no network chatter). */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

/**
 * Specs that mostly wait (a hung or slow mail server, a lease running out, a phone's
 * throttled link, a server killed and restarted) or hold one long test: their own project
 * starts them from the beginning, so their waits overlap the other specs' work instead of
 * adding to it. The console's specs, the link walk and the specs that start servers of their
 * own go with them so that both Chromium projects end together: measured per spec (docs/benchmarks.md), the rest alone kept two
 * workers busy for half the run after these had finished.
 */
const waits = [
  "console-a11y",
  "console-overview",
  "console-passkeys",
  "console-people",
  "faults",
  "fuzz",
  "links",
  "mail-faults",
  "mail-limits",
  "mail-trust",
  "proxy",
  "register-durability",
  "registrant-journey",
  "slow-phone",
].map((name) => `${name}.spec.ts`);

export default defineConfig({
  fullyParallel: true,
  workers: 4,
  forbidOnly: Boolean(process.env.CI),
  // PLAYWRIGHT_JSON_OUTPUT_NAME adds Playwright's JSON report: per-test times for docs/benchmarks.md.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: chromiumLaunch,
    trace: "retain-on-failure",
  },
  projects: [
    // Firefox ESR and WebKitGTK drive the core journeys through their own drivers
    // (tests/engines/journeys.ts) and use none of Playwright's browser fixtures. Listed
    // first so their one long serial run takes a worker from the start, not at the end.
    { name: "engines", testDir: "tests/engines", workers: 1 },
    // Two workers each: with a third in one project, a burst of 2,000 registrations met 503s
    // (proxy.spec.ts).
    { name: "waits", testDir: "tests/e2e", testMatch: waits, workers: 2 },
    { name: "chromium", testDir: "tests/e2e", testIgnore: waits, workers: 2 },
  ],
  webServer: {
    // The production server over the production build (npm test builds first).
    command: "node server/index.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      PORT: String(port),
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      CONSOLE_PORT: String(consolePort),
      CONSOLE_URL: consoleURL,
      LOG_LEVEL: "warn",
      // The tests submit many registrations from one address.
      RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_DAY: "100000",
    },
  },
});
