import { defineConfig } from "@playwright/test";

import { trace } from "../../playwright.config.ts";
import { chromiumLaunch } from "../../scripts/lib/chromium.ts";

/**
 * The production image, built from deploy/Dockerfile and run as production runs it
 * (tests/image/image.spec.ts). Its own run, after the rest of the end-to-end suite:
 * building the image takes minutes and the drain test wants a calm machine
 * (docs/decisions/118).
 */
export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    browserName: "chromium",
    launchOptions: chromiumLaunch,
    trace,
  },
});
