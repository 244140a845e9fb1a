/**
 * Debian's build of Chromium's headless shell (the one Playwright itself runs headless tests
 * in), with the flags these machines need (no sandbox as root, no network chatter). The full
 * browser in headless mode took 1.7 times as long for the same spec (docs/benchmarks.md).
 */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
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
