import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import type { ServerBuild } from "react-router";

import { announcementStyles } from "./announcements/drafts.ts";
import { createApp } from "./app.ts";
import { createConsoleApp, publicBuild } from "./console/app.ts";
import { createStaffOperations } from "./console/operations.ts";
import { consoleOrigin, type Env, envOrExit, renamedVariables } from "./env.ts";
import { createLogger, type Logger } from "./logger.ts";
import {
  connectRateLimitStores,
  createRegistrationGuards,
  inMemoryStores,
  type RateLimitStores,
} from "./registrations/guards.ts";
import { loadCspManifest, securityHeaders } from "./security-headers.ts";
import { openServices, type Services } from "./services.ts";
import { dataDirProblem, startupLine } from "./startup.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The staff console on its own listener, never the public one (decision 133). */
function listenConsole({
  env,
  logger,
  build,
  buildDir,
  services,
  manifest,
  storeFor,
  isReady,
  die,
}: {
  env: Env;
  logger: Logger;
  build: ServerBuild;
  buildDir: string;
  services: Services;
  manifest: ReturnType<typeof loadCspManifest>["manifest"];
  storeFor: RateLimitStores["storeFor"];
  isReady: () => boolean;
  die: (fields: object, message: string) => never;
}) {
  const consoleApp = createConsoleApp({
    build,
    clientDir: path.join(buildDir, "client"),
    logger,
    services: { registrations: services.registrations },
    store: services.staff,
    operations: createStaffOperations({
      store: services.staff,
      consoleOrigin: consoleOrigin(env),
      mailer: env.SMTP_URL ? services.mailer : undefined,
      logger,
      admin: services.admin,
      announcements: services.announcements,
    }),
    consoleOrigin: consoleOrigin(env),
    trustProxy: env.TRUST_PROXY,
    headers: securityHeaders({
      hsts: env.HSTS,
      manifest,
      console: true,
      consoleStyles: announcementStyles(),
    }),
    storeFor,
    signInLimits: {
      perMinute: env.CONSOLE_SIGN_IN_PER_MINUTE,
      perHour: env.CONSOLE_SIGN_IN_PER_HOUR,
    },
    isReady,
  });
  const consoleServer = consoleApp.listen(env.CONSOLE_PORT, env.CONSOLE_HOST, () => {
    const address = consoleServer.address();
    const port = typeof address === "object" && address ? address.port : env.CONSOLE_PORT;
    logger.info({ port, host: env.CONSOLE_HOST }, "console listening");
    if (process.stdout.isTTY) {
      process.stdout.write(
        `Staff console: ${consoleOrigin(env)}/console · first manager: npm run staff -- invite --email … --role manager\n`,
      );
    }
  });
  consoleServer.on("error", (error) => die({ err: error }, "the staff console failed to start"));
  return consoleServer;
}

async function main() {
  const env = envOrExit();
  const logger = createLogger(env.LOG_LEVEL);
  const die = (fields: object, message: string): never => {
    logger.fatal(fields, message);
    process.exit(1);
  };
  const renamed = renamedVariables();
  if (renamed) logger.warn(renamed);

  const dataDir = dataDirProblem(env);
  if (dataDir) die({ dataDir: env.DATA_DIR, uid: process.getuid?.() }, dataDir);

  const buildDir = path.resolve(root, env.BUILD_DIR);
  const buildPath = path.join(buildDir, "server", "index.js");
  const build = (await import(pathToFileURL(buildPath).href).catch(() =>
    die({ buildPath }, "No production build found: run `npm run build` first"),
  )) as ServerBuild;

  const csp = loadCspManifest(buildDir);
  if (csp.source === "computed") {
    logger.warn({ buildDir }, "No CSP manifest in the build: script hashes computed at start-up");
  }

  const rateLimitStores = env.REDIS_URL
    ? await connectRateLimitStores(env.REDIS_URL, logger, {
        keyPrefix: env.REDIS_KEY_PREFIX,
      }).catch((error: unknown) =>
        die({ err: error }, "REDIS_URL is set but Redis cannot be reached"),
      )
    : inMemoryStores;

  const services = await openServices(env, logger, { mailThread: true });
  let draining = false;

  const app = createApp({
    build: publicBuild(build),
    clientDir: path.join(buildDir, "client"),
    logger,
    services: { registrations: services.registrations },
    trustProxy: env.TRUST_PROXY,
    registrationGuards: createRegistrationGuards({
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      perDay: env.RATE_LIMIT_PER_DAY,
      allowedOrigins: env.ALLOWED_ORIGINS,
      logger,
      storeFor: rateLimitStores.storeFor,
    }),
    isReady: () => !draining,
    storageHealth: services.health,
    headers: securityHeaders({ hsts: env.HSTS, manifest: csp.manifest }),
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info({ port, database: env.DATABASE_URL ? "postgres" : "sqlite" }, "listening");
    // A person at a terminal (`npm start`) gets one plain line; pipes and services get JSON only.
    if (process.stdout.isTTY) process.stdout.write(`${startupLine(env, port)}\n`);
  });
  server.on("error", (error) => die({ err: error }, "server failed to start"));

  const consoleServer = listenConsole({
    env,
    logger,
    build,
    buildDir,
    services,
    manifest: csp.manifest,
    storeFor: rateLimitStores.storeFor,
    isReady: () => !draining,
    die,
  });
  // Outlive the client's idle sockets, or a request written as we close fails "other side
  // closed" (Node's 5 s default in CI); Caddy drops its idle upstreams after 30 s.
  server.keepAliveTimeout = consoleServer.keepAliveTimeout = 65_000;
  services.start();

  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal }, "draining");
    const servers = [server, consoleServer];
    const force = setTimeout(() => {
      logger.warn("grace period over; closing remaining connections");
      for (const s of servers) s.closeAllConnections();
    }, env.SHUTDOWN_GRACE_SECONDS * 1000);
    force.unref();
    const closed = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    void Promise.all(closed)
      .then(() => Promise.all([services.close(), rateLimitStores.close()]))
      .then(() => {
        logger.info("stopped");
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "error while closing storage");
        process.exit(1);
      });
    for (const s of servers) s.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

await main();
