/**
 * The staff console's recovery CLI: `npm run --silent staff -- <command>` (invite, list,
 * revoke). Reads the same environment as the server (DATA_DIR or DATABASE_URL, CONSOLE_URL).
 */
import { pino } from "pino";

import { runStaffCli } from "./staff-run.ts";
import { openStorage } from "../compose.ts";
import { envOrExit } from "../env.ts";
import { createMailer } from "../mail/transport.ts";

const env = envOrExit();
const logger = pino({ level: "warn" }, pino.destination(2));
const mailer = env.SMTP_URL ? createMailer(env, logger) : undefined;

process.exitCode = await runStaffCli(process.argv.slice(2), {
  env,
  mailer,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  openStorage: (e) => openStorage(e, logger),
});
mailer?.close();
