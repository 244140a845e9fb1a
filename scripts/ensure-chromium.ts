/**
 * Makes sure Chromium's headless shell is there for the end-to-end tests. Playwright cannot
 * download its own browsers on these machines, so we use Debian's package.
 */
import { existsSync } from "node:fs";

import { aptInstall } from "./lib/apt.ts";
import { chromiumLaunch } from "./lib/chromium.ts";

const chromiumPath = chromiumLaunch.executablePath;

if (!existsSync(chromiumPath)) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(
      `No Chromium at ${chromiumPath}. Install it (Debian: sudo apt-get install -y chromium-headless-shell) ` +
        "or set CHROMIUM_PATH to a Chromium or Chrome binary, then run npm test again.",
    );
    process.exit(1);
  }
  console.log(`No Chromium at ${chromiumPath}: installing Debian's chromium-headless-shell...`);
  aptInstall(["chromium-headless-shell"]);
}
