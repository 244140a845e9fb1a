import { execFile, execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { Agent } from "node:https";
import { type LookupFunction, connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";

import { type Browser, expect, test } from "@playwright/test";

import {
  CONSENT_STORAGE_KEY,
  essentialOnly,
  serializeConsent,
} from "../../app/features/consent/consent-record.ts";
import { type MailCatcher, startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { formBody, newRegistration } from "../../scripts/lib/registrations.ts";
import { type Caddy, freePort, httpsFetch, startCaddy } from "../../scripts/lib/server-process.ts";
import { virtualAuthenticator } from "../support/console.ts";
import { notFoundPath, staticRoutes, staticPaths } from "../support/site.ts";

/**
 * The image an operator builds from deploy/Dockerfile, run as production runs it: as
 * uid 1000, with a read-only root filesystem and a volume at /data, SITE_URL set, behind
 * Caddy with the shipped Caddyfile (docs/deployment.md, docs/decisions/118). The base
 * image `node:24-bookworm-slim` is made locally by scripts/ensure-docker.ts, with the
 * newest Node 24, so the server also runs on the Node release production gets.
 */

const root = path.resolve(import.meta.dirname, "../..");
/** IMAGE_UNDER_TEST names an image built already (e.g. from an older commit) to test instead. */
const prebuilt = process.env.IMAGE_UNDER_TEST;
const image = prebuilt ?? "clinic-site:test";
const run = promisify(execFile);

function dockerReady(): string | undefined {
  if (spawnSync("docker", ["info"], { stdio: "ignore", timeout: 20_000 }).status !== 0) {
    return "no Docker engine answers `docker info` (scripts/ensure-docker.ts starts one as root)";
  }
  if (
    spawnSync("docker", ["image", "inspect", "node:24-bookworm-slim"], { stdio: "ignore" })
      .status !== 0
  ) {
    return "no node:24-bookworm-slim base image (scripts/ensure-docker.ts makes it as root)";
  }
  return undefined;
}

const notReady = dockerReady();
if (notReady && process.env.CI) throw new Error(`The image tests cannot run: ${notReady}`);
test.skip(Boolean(notReady), `Skipping the image tests: ${notReady}`);
test.describe.configure({ mode: "serial" });

function docker(...args: string[]): string {
  return execFileSync("docker", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** `npm run registrations` inside the container, as docs/operations.md runs it. */
async function cli(container: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run("docker", [
      "exec",
      container,
      "npm",
      "run",
      "--silent",
      "registrations",
      "--",
      ...args,
    ]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The stop timeout compose.yaml gives the app servers, in seconds. */
function composeStopSeconds(): number {
  const compose = readFileSync(path.join(root, "deploy/compose.yaml"), "utf8");
  const match = /stop_grace_period:\s*(\d+)s/.exec(compose);
  if (!match) throw new Error("deploy/compose.yaml sets no stop_grace_period");
  return Number(match[1]);
}

function htmlText(html: string): string {
  return html.replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

type Container = { name: string; port: number };

let caddy: Caddy;
let caddyPort: number;
let appPort: number;
let consolePort: number;
let dataDir: string;
let mail: MailCatcher;
const containers: string[] = [];
const registered: string[] = [];

async function startContainer(env: Record<string, string>): Promise<Container> {
  const name = `clinic-image-test-${randomUUID().slice(0, 8)}`;
  containers.push(name);
  const settings = {
    PORT: String(appPort),
    SITE_URL: `https://localhost:${caddyPort}`,
    CONSOLE_PORT: String(consolePort),
    CONSOLE_URL: `https://console.localhost:${caddyPort}`,
    TRUST_PROXY: "1",
    // The tests register several times from one address.
    RATE_LIMIT_PER_MINUTE: "1000",
    ...env,
  };
  docker(
    "run",
    "--detach",
    "--name",
    name,
    "--network",
    "host",
    "--read-only",
    "--volume",
    `${dataDir}:/data`,
    ...Object.entries(settings).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    image,
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${appPort}/healthz`).catch(() => null);
    if (response?.status === 200) break;
    const state = docker("inspect", "--format", "{{.State.Status}}", name).trim();
    if (state !== "running" || Date.now() > deadline) {
      throw new Error(`${name} does not answer /healthz (${state}); its output:\n${logs(name)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { name, port: appPort };
}

function logs(name: string): string {
  const result = spawnSync("docker", ["logs", name], { encoding: "utf8" });
  return `${result.stdout}${result.stderr}`;
}

async function registerInBrowser(browser: Browser, email: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled });
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    CONSENT_STORAGE_KEY,
    serializeConsent(essentialOnly),
  ] as const);
  const page = await context.newPage();
  const posts: string[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "POST") posts.push(`${new URL(r.url()).pathname} ${r.status()}`);
  });
  await page.goto(`${caddy.origin}/register-interest`);
  if (javaScriptEnabled) await expect(page.locator("form[novalidate]")).toHaveCount(1);
  await page.getByLabel("Full name").fill("Sam Image");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Register Interest" }).click();
  await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible();
  expect(posts).toEqual([javaScriptEnabled ? "/register-interest 200" : "/register-interest 303"]);
  await context.close();
  registered.push(email);
}

let current: Container;

test.beforeAll(async () => {
  // Building on Docker's vfs storage with two cores takes minutes; a rebuild with an
  // unchanged package-lock.json reuses the `npm ci` layer, and npm test has built it already.
  test.setTimeout(30 * 60_000);
  const started = Date.now();
  if (!prebuilt) {
    execFileSync(process.execPath, ["scripts/build-image.ts"], { cwd: root, stdio: "inherit" });
  }
  const size = Number(docker("image", "inspect", "--format", "{{.Size}}", image));
  test.info().annotations.push({
    type: "image",
    description: `built in ${Math.round((Date.now() - started) / 1000)} s, ${Math.round(size / 1e6)} MB`,
  });
  console.log(
    `Image ${image}: built in ${Math.round((Date.now() - started) / 1000)} s, ${Math.round(size / 1e6)} MB`,
  );

  dataDir = mkdtempSync(path.join(tmpdir(), "clinic-image-data-"));
  // The image's `node` user: docs/deployment.md asks the operator for the same.
  chownSync(dataDir, 1000, 1000);
  caddyPort = await freePort();
  appPort = await freePort();
  consolePort = await freePort();
  mail = await startMailCatcher();
  current = await startContainer({});
  caddy = await startCaddy([`127.0.0.1:${appPort}`], {
    port: caddyPort,
    console: [`127.0.0.1:${consolePort}`],
  });
});

test.afterAll(async () => {
  await caddy?.stop();
  await mail?.close();
  for (const name of containers) spawnSync("docker", ["rm", "--force", name], { stdio: "ignore" });
});

test("runs as uid 1000 on a read-only root, turns healthy, and holds no development package", async () => {
  test.setTimeout(90_000);
  expect(docker("exec", current.name, "id", "-u").trim()).toBe("1000");
  const write = spawnSync("docker", ["exec", current.name, "touch", "/app/x"], {
    encoding: "utf8",
  });
  expect(write.stderr).toMatch(/Read-only file system/);
  await expect
    .poll(() => docker("inspect", "--format", "{{.State.Health.Status}}", current.name).trim(), {
      timeout: 60_000,
      intervals: [1_000],
    })
    .toBe("healthy");

  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const present = docker(
    "exec",
    current.name,
    "sh",
    "-c",
    'for p in "$@"; do [ -e "node_modules/$p" ] && echo "$p"; done; true',
    "sh",
    ...Object.keys(manifest.devDependencies),
    "@types/react",
    "@opentelemetry/api",
    "pg-cloudflare",
  );
  expect(present.split("\n").filter(Boolean)).toEqual([]);
  test.info().annotations.push({
    type: "node",
    description: docker("exec", current.name, "node", "--version").trim(),
  });
});

test("serves every prerendered page and the 404 through Caddy", async () => {
  const headings = new Map(staticRoutes.map((route) => [route.path, route.heading]));
  for (const pagePath of staticPaths) {
    const page = await httpsFetch(`${caddy.origin}${pagePath}`, caddy.ca);
    expect(page.status, pagePath).toBe(200);
    expect(page.body, pagePath).toContain("<h1");
    const heading = headings.get(pagePath);
    if (heading) expect(htmlText(page.body), pagePath).toContain(heading);
    expect(page.headers["content-security-policy"], pagePath).toContain("script-src");
  }
  const missing = await httpsFetch(`${caddy.origin}${notFoundPath}`, caddy.ca);
  expect(missing.status).toBe(404);
  expect(missing.body).toContain("<h1");
});

/** Node asks the system for console.localhost, which has no entry: it is loopback. */
const loopback: LookupFunction = (_host, options, callback) => {
  if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
};

test("serves the staff console under its own name only, and a CLI invite enrols a passkey through it", async ({
  browser,
}) => {
  const consoleOrigin = caddy.consoleOrigin ?? "";
  // The public name has no console (its build has none of the console's routes).
  for (const pathname of ["/console", "/console/sign-in"]) {
    expect((await httpsFetch(`${caddy.origin}${pathname}`, caddy.ca)).status, pathname).toBe(404);
  }
  const agent = new Agent({ lookup: loopback });
  const signIn = await httpsFetch(`${consoleOrigin}/console/sign-in`, caddy.ca, { agent });
  agent.destroy();
  expect(signIn.status).toBe(200);
  expect(signIn.body).toContain("Sign in with a passkey");
  expect(signIn.headers).toMatchObject({
    "cache-control": "no-store",
    "x-robots-tag": "noindex",
    "x-frame-options": "DENY",
  });
  expect(signIn.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(signIn.headers.server).toBeUndefined();

  const email = `image-manager-${randomUUID().slice(0, 8)}@clinic.example`;
  const { stdout } = await run("docker", [
    ...["exec", current.name, "npm", "run", "--silent", "staff", "--"],
    ...["invite", "--email", email, "--role", "manager"],
  ]);
  const link = stdout.trim().split("\n").at(-1) ?? "";
  expect(link.startsWith(`${consoleOrigin}/console/enrol?token=`), link).toBe(true);

  // Chromium resolves console.localhost to loopback itself.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const response = await page.goto(link);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your passkey");
  await expect(page.getByText(email)).toBeVisible();
  // The passkey script loaded through the proxy under the console's CSP, and the
  // ceremony completes against the image's own origin.
  await virtualAuthenticator(page);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleOrigin}/console`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  // Over https the session cookie is __Host- and Secure (e2e's http://localhost has neither).
  const cookies = await context.cookies(consoleOrigin);
  expect(cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite])).toEqual([
    ["__Host-console-session", true, true, "Strict"],
  ]);
  expect(problems).toEqual([]);
  await context.close();
});

test("registers with and without JavaScript, stores each once, and writes the confirmation under /data/mail", async ({
  browser,
}) => {
  const emails = [
    `image-js-${randomUUID()}@example.co.uk`,
    `image-nojs-${randomUUID()}@example.co.uk`,
  ];
  await registerInBrowser(browser, emails[0]!, true);
  await registerInBrowser(browser, emails[1]!, false);
  for (const email of emails) {
    const shown = await cli(current.name, "show", "--email", email);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(email);
    // The confirmation, written by the outbox worker as an .eml file on the volume.
    await expect
      .poll(
        () => {
          const dir = path.join(dataDir, "mail");
          if (!existsSync(dir)) return 0;
          return readdirSync(dir).filter((file) =>
            readFileSync(path.join(dir, file), "utf8").includes(email),
          ).length;
        },
        { timeout: 20_000, message: `the confirmation email to ${email}` },
      )
      .toBe(1);
  }
});

test("the operations CLI runs in the container: count, show, export, backup, announce --dry-run", async () => {
  const count = await cli(current.name, "count");
  expect(count.code, count.stderr).toBe(0);
  expect(count.stdout).toContain(String(registered.length));

  // The SQLite online backup on the image's Node (Node 24.21 refused the old rate of -1).
  const backup = await cli(current.name, "backup", "--to", "/data/backup.sqlite");
  expect(backup.code, backup.stderr).toBe(0);
  const copy = new DatabaseSync(path.join(dataDir, "backup.sqlite"), { readOnly: true });
  try {
    const emails = (
      copy.prepare("SELECT email FROM registrations").all() as { email: string }[]
    ).map((row) => row.email);
    expect(emails.toSorted()).toEqual(registered.toSorted());
  } finally {
    copy.close();
  }

  writeFileSync(path.join(dataDir, "announcement.txt"), "We are open.\n");
  const announce = await cli(
    current.name,
    "announce",
    "--subject",
    "We are open",
    "--text-file",
    "/data/announcement.txt",
    "--dry-run",
  );
  expect(announce.code, announce.stderr).toBe(0);
  expect(announce.stdout).toMatch(/\d/);
});

test("docker stop drains: a request in flight finishes, /healthz answers 503, the server exits 0 in time", async () => {
  test.setTimeout(90_000);
  const stopSeconds = composeStopSeconds();
  const registration = newRegistration("image-drain");
  const body = formBody(registration);
  // One connection: a registration whose headers the server has read (it sent
  // "100 Continue") but whose body is held back, then /healthz pipelined behind it.
  const socket = connect(current.port, "127.0.0.1");
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (answer += chunk));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write(
    [
      "POST /register-interest HTTP/1.1",
      `Host: 127.0.0.1:${current.port}`,
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Origin: http://127.0.0.1:${current.port}`,
      "Expect: 100-continue",
      "",
      "",
    ].join("\r\n"),
  );
  await expect.poll(() => answer).toContain("100 Continue");

  const started = Date.now();
  const stopped = run("docker", ["stop", "--time", String(stopSeconds), current.name]);
  await expect.poll(() => logs(current.name), { timeout: 10_000 }).toContain('"msg":"draining"');
  // Held a while longer, then sent: the server is draining and still answers it.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  socket.write(`${body}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${current.port}\r\n\r\n`);
  await expect.poll(() => answer.includes("HTTP/1.1 503")).toBe(true);
  socket.end();
  await closed;
  await stopped;
  const seconds = (Date.now() - started) / 1000;

  // 100 Continue, the registration's answer (the thank-you page, or its redirect), then 503.
  const statuses = (answer.match(/^HTTP\/1\.1 \d{3}/gm) ?? []).map((line) => line.slice(9));
  expect(statuses).toHaveLength(3);
  expect(statuses[0]).toBe("100");
  expect(["200", "303"]).toContain(statuses[1]);
  expect(statuses[2]).toBe("503");
  expect(docker("inspect", "--format", "{{.State.ExitCode}}", current.name).trim()).toBe("0");
  expect(seconds).toBeLessThan(stopSeconds);
  expect(logs(current.name)).toContain('"msg":"stopped"');
  registered.push(registration.email);
  test
    .info()
    .annotations.push({ type: "drain", description: `docker stop took ${seconds.toFixed(1)} s` });
});

test("a new container on the same volume keeps every registration, and sends mail over SMTP", async ({
  browser,
}) => {
  current = await startContainer({
    SMTP_URL: mail.url,
    MAIL_FROM: "Clinic <hello@clinic.example.co.uk>",
  });
  const exported = await cli(current.name, "export", "--format", "csv");
  expect(exported.code, exported.stderr).toBe(0);
  for (const email of registered) {
    expect(
      exported.stdout.split("\n").filter((line) => line.includes(email)),
      email,
    ).toHaveLength(1);
  }
  // Caddy's health check finds the new container on the same port.
  await expect
    .poll(async () => (await httpsFetch(`${caddy.origin}/healthz`, caddy.ca)).status, {
      timeout: 20_000,
    })
    .toBe(200);
  const email = `image-smtp-${randomUUID()}@example.co.uk`;
  await registerInBrowser(browser, email, false);
  const [message] = await mail.waitFor(email, 1, 30_000);
  expect(message?.parsed.text).toContain(`https://localhost:${caddyPort}/`);
});

test("a /data the server cannot write stops it with a message that says what to do", () => {
  const unwritable = mkdtempSync(path.join(tmpdir(), "clinic-image-root-"));
  const name = `clinic-image-test-${randomUUID().slice(0, 8)}`;
  containers.push(name);
  const result = spawnSync(
    "docker",
    [
      "run",
      "--name",
      name,
      "--network",
      "host",
      "--read-only",
      "--volume",
      `${unwritable}:/data`,
      "--env",
      "PORT=0",
      image,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  expect(result.status).not.toBe(0);
  expect(`${result.stdout}${result.stderr}`).toMatch(/\/data.*uid 1000/s);
});
