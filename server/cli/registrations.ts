// `npm run --silent registrations -- <command>`, with the server's environment.
import { pino } from "pino";

import { envOrExit } from "../env.ts";
import { createLogger } from "../logger.ts";
import { openServices } from "../services.ts";
import { runCli } from "./run.ts";

const env = envOrExit();

// On stderr, so that stdout carries only the command's output (e.g. a CSV export).
const logger = createLogger("warn", pino.destination(2));

process.exitCode = await runCli(process.argv.slice(2), {
  env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  openServices: (e) => openServices(e, logger),
});
