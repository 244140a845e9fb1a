/**
 * Operations CLI for stored registrations: `npm run --silent registrations -- <command>`.
 * Reads the same environment as the server (DATA_DIR or DATABASE_URL).
 */
import { pino } from "pino";

import { envOrExit } from "../env.ts";
import { runCli } from "./run.ts";
import { openStorage } from "../compose.ts";

const env = envOrExit();

// Logs go to stderr so that stdout carries only the command's output (e.g. a CSV export).
const logger = pino({ level: "warn" }, pino.destination(2));

process.exitCode = await runCli(process.argv.slice(2), {
  env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  openStorage: (e) => openStorage(e, logger),
});
