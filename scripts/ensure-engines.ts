/**
 * Makes sure Firefox ESR and WebKitGTK are there for the engine journeys (tests/engines):
 * Debian's firefox-esr, WebKitWebDriver (webkit2gtk-driver), Xvfb (WebKitGTK has no
 * headless mode) and the GTK bindings of the bare browser window (tests/engines/webkit-shell.py).
 * CI machines start without them: as root, the packages are installed; otherwise the
 * message says what to do. Nothing is downloaded outside apt.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

import { aptInstall } from "./lib/apt.ts";

const checks: { what: string; ok: () => boolean; packages: string[] }[] = [
  {
    what: "Firefox ESR",
    ok: () => existsSync(process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr"),
    packages: ["firefox-esr"],
  },
  {
    what: "WebKitWebDriver",
    ok: () => existsSync(process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver"),
    packages: ["webkit2gtk-driver"],
  },
  { what: "Xvfb", ok: () => existsSync("/usr/bin/Xvfb"), packages: ["xvfb", "xauth"] },
  {
    what: "WebKitGTK's Python bindings",
    ok: () =>
      spawnSync(
        "/usr/bin/python3",
        ["-c", "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1')"],
        { stdio: "ignore" },
      ).status === 0,
    packages: ["gir1.2-webkit2-4.1", "python3-gi"],
  },
];

const missing = checks.filter((check) => !check.ok());
if (missing.length > 0) {
  const packages = missing.flatMap((check) => check.packages);
  const names = missing.map((check) => check.what).join(", ");
  if (process.getuid?.() !== 0) {
    console.error(
      `Missing for the Firefox ESR and WebKitGTK journeys: ${names}. Install them ` +
        `(Debian: sudo apt-get install -y ${packages.join(" ")}), then run npm test again.`,
    );
    process.exit(1);
  }
  console.log(`Missing ${names}: installing ${packages.join(" ")}...`);
  aptInstall(packages);
  const still = checks.filter((check) => !check.ok()).map((check) => check.what);
  if (still.length > 0) {
    console.error(`Still missing after installing: ${still.join(", ")}`);
    process.exit(1);
  }
}
