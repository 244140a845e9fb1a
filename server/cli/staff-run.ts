import { parseArgs } from "node:util";

import type { CliIo } from "./run.ts";
import { escapeUnsafe, LINES } from "./terminal-text.ts";
import { STAFF_ROLES, type StaffRole } from "../../contract/console.ts";
import type { Storage } from "../compose.ts";
import { createStaffOperations } from "../console/operations.ts";
import { consoleOrigin } from "../env.ts";
import type { Mailer } from "../mail/transport.ts";

export const STAFF_USAGE = `Usage: npm run --silent staff -- <command> [options]

Commands:
  invite --email <address> --role viewer|manager
                           A one-time link to enrol a passkey in the staff console, valid for
                           24 hours, printed as the last line (and emailed when SMTP_URL is
                           set). Re-invite someone who lost every passkey the same way.
  list                     Staff, their roles and passkeys, and invitations not yet used
  revoke --email <address> Remove someone: their sessions end at once, their passkeys go
`;

class UsageError extends Error {
  override name = "UsageError";
}

export type StaffCliIo = CliIo & { mailer?: Mailer };

async function execute(
  command: string,
  values: Record<string, unknown>,
  storage: Storage,
  io: StaffCliIo,
) {
  const operations = createStaffOperations({
    store: storage.staff,
    consoleOrigin: consoleOrigin(io.env),
    mailer: io.mailer,
  });
  const email = typeof values.email === "string" ? values.email : undefined;
  switch (command) {
    case "invite": {
      if (!email) throw new UsageError("Give the address with --email someone@clinic.example");
      const role = values.role;
      if (typeof role !== "string" || !STAFF_ROLES.includes(role as StaffRole)) {
        throw new UsageError("Give the role with --role viewer or --role manager");
      }
      const result = await operations.invite(null, email, role as StaffRole);
      if (!result.ok) throw new Error(result.message);
      io.stdout(
        `Invitation for ${email.trim().toLowerCase()} as ${role}, valid once until ${result.expiresAt}${result.emailed ? "; emailed" : ""}. The enrolment link:\n${result.link}\n`,
      );
      return;
    }
    case "list": {
      const people = await operations.list();
      if (people.length === 0)
        io.stdout("No staff yet: invite the first manager with `staff -- invite`.\n");
      for (const p of people) {
        io.stdout(
          `${p.email}  ${p.role}  ${p.passkeys} ${p.passkeys === 1 ? "passkey" : "passkeys"}  last sign-in ${p.lastSignInAt ?? "never"}\n`,
        );
      }
      for (const i of await storage.staff.pendingInvites()) {
        io.stdout(`invited  ${i.email}  ${i.role}  until ${i.expires_at}\n`);
      }
      return;
    }
    case "revoke": {
      if (!email) throw new UsageError("Give the address with --email someone@clinic.example");
      const result = await operations.revokeByEmail(null, email);
      if (!result.ok) throw new Error(result.message);
      io.stdout(
        `Removed ${email.trim().toLowerCase()}: signed out everywhere, passkeys deleted.\n`,
      );
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Runs one staff command; returns the exit code (0 ok, 1 failure, 2 usage), like runCli. */
export async function runStaffCli(args: string[], rawIo: StaffCliIo): Promise<number> {
  const io: StaffCliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(escapeUnsafe(text, LINES)),
    stderr: (text) => rawIo.stderr(escapeUnsafe(text, LINES)),
  };
  let storage: Storage | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: {
          email: { type: "string" },
          role: { type: "string" },
          help: { type: "boolean", short: "h" },
        },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const [command, ...extra] = parsed.positionals;
    if (parsed.values.help || command === "help") {
      io.stdout(STAFF_USAGE);
      return 0;
    }
    if (!command) throw new UsageError("Name a command");
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}"`);
    storage = await io.openStorage(io.env);
    await execute(command, parsed.values, storage, io);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      io.stderr(`${message}\n\n${STAFF_USAGE}`);
      return 2;
    }
    io.stderr(`${message}\n`);
    return 1;
  } finally {
    await storage?.close();
  }
}
