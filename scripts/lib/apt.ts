import { execFileSync } from "node:child_process";

/**
 * Installs Debian packages (as root). npm test ensures its tools from two lanes at once,
 * and apt-get does not wait for another apt-get's lock on the package lists, so every
 * install here takes its turn on one lock file. An install cut off earlier (a run stopped
 * mid-way) leaves dpkg waiting to be finished first, which `dpkg --configure -a` does.
 */
export function aptInstall(packages: string[], options: { recommends?: boolean } = {}) {
  const install = [
    "apt-get",
    "install",
    "-y",
    "-qq",
    ...(options.recommends === false ? ["--no-install-recommends"] : []),
    ...packages,
  ];
  execFileSync(
    "flock",
    [
      "/var/lock/clinic-site-apt.lock",
      "sh",
      "-c",
      'dpkg --configure -a && apt-get update -qq && "$@"',
      "sh",
      ...install,
    ],
    { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } },
  );
}
