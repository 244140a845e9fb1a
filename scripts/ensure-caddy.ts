/**
 * Makes sure Caddy is there for the end-to-end tests behind a TLS proxy
 * (tests/e2e/proxy.spec.ts). CI machines start without it: as root, Debian's
 * package is installed; otherwise the message says what to do.
 */
import { spawnSync } from "node:child_process";

import { aptInstall } from "./lib/apt.ts";

const caddyPath = process.env.CADDY_PATH ?? "caddy";

if (spawnSync(caddyPath, ["version"], { stdio: "ignore" }).status !== 0) {
  if (process.getuid?.() !== 0) {
    console.error(
      `No Caddy at ${caddyPath}. Install it (Debian: sudo apt-get install -y caddy) ` +
        "or set CADDY_PATH to a Caddy 2 binary, then run npm test again.",
    );
    process.exit(1);
  }
  console.log("No Caddy found: installing Debian's caddy package...");
  aptInstall(["caddy"], { recommends: false });
  // The package starts a system service on port 80; the tests run their own Caddy.
  spawnSync("systemctl", ["disable", "--now", "caddy"], { stdio: "ignore" });
}
