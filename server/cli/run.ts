import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";

import { announcementWarningWords } from "../../app/content/console.ts";
import { STAFF_ROLES, type StaffRole } from "../../contract/console.ts";
import { AUDIENCES, announcementProblem, isAudience } from "../announcements/drafts.ts";
import { createStaffOperations } from "../console/operations.ts";
import { backupSqlite } from "../db/backup.ts";
import { consoleOrigin, type Env } from "../env.ts";
import { parseAge } from "../registrations/admin.ts";
import { registrationsCsv } from "../registrations/csv.ts";
import type { Services } from "../services.ts";

/**
 * Characters a terminal acts on or that reorder what it shows (decision 077): C0 controls,
 * DEL, C1 controls (U+009B is a one-character CSI, U+009D starts an OSC that can set the
 * window title or write the clipboard), bidi overrides, embeddings, isolates and marks,
 * and the Unicode line and paragraph separators.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;

/** What a line-oriented command may print raw: its own line breaks. */
export const LINES = /\n/y;
/** A CSV export's record breaks and the whitespace of quoted multi-line messages round-trip. */
export const CSV_TEXT = /[\t\n\r]/y;

/**
 * Every unsafe character as a visible escape (`\u009b`), except those `keep` matches at
 * their position: inert in any terminal, and staff see that something odd was stored.
 */
export function escapeUnsafe(text: string, keep?: RegExp): string {
  return text.replace(UNSAFE, (char, offset: number) => {
    if (keep) {
      keep.lastIndex = offset;
      if (keep.test(text)) return char;
    }
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

export const USAGE = `Usage: npm run --silent registrations -- <command> [options]

Commands:
  count                          How many registrations are stored
  list [--limit 20]              The most recent registrations first
  export --format csv            Every registration as CSV (RFC 4180), oldest first
  show --email <address>         Everything stored for one address (subject access request),
                                 and what any erasure of it left to do
  erase --email <address>        Delete everything stored for one address (right to erasure)
  outbox [--retry]               Spreadsheet deliveries and emails: what is waiting, what failed,
                                 each announcement's progress; --retry sends the failed ones again
  purge [--older-than 24m]       Delete registrations older than this (months: 24m, days: 30d)
  purge --unconfirmed            Delete registrations not confirmed within 30 days (the server
                                 also does this daily)
  announce --subject <text> --text-file <file> [--audience all|updates] [--dry-run]
           [--acknowledge-warning]
                                 Submit the text for a manager's approval in the staff
                                 console; once approved there, the console (or this command
                                 again) emails every confirmed, subscribed address, once, at
                                 MAIL_PER_MINUTE; --audience updates: only those who asked
                                 for news before we open; --dry-run only counts who would
                                 receive it; --acknowledge-warning: the text names a
                                 prescription-only medicine or a price and has been checked
  backup --to <file> [--force]   Copy the embedded SQLite database while the server runs
                                 (PostgreSQL: use pg_dump, see docs/operations.md)
`;

const STAFF_USAGE = `Usage: npm run --silent staff -- <command> [options]

Commands:
  invite --email <address> --role viewer|manager
                           A one-time link to enrol a passkey in the staff console, valid for
                           24 hours, printed as the last line (and emailed when SMTP_URL is
                           set). Re-invite someone who lost every passkey the same way.
  list                     Staff, their roles and passkeys, and invitations not yet used
  revoke --email <address> Remove someone: their sessions end at once, their passkeys go
`;

export type CliIo = {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  openServices: (env: Env) => Promise<Services>;
};

class UsageError extends Error {
  override name = "UsageError";
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        limit: { type: "string" },
        format: { type: "string" },
        email: { type: "string" },
        retry: { type: "boolean" },
        "older-than": { type: "string" },
        to: { type: "string" },
        force: { type: "boolean" },
        unconfirmed: { type: "boolean" },
        subject: { type: "string" },
        "text-file": { type: "string" },
        "dry-run": { type: "boolean" },
        audience: { type: "string" },
        "acknowledge-warning": { type: "boolean" },
        role: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function requireEmail(email: string | undefined): string {
  if (!email?.includes("@"))
    throw new UsageError("Give the address with --email someone@example.com");
  return email;
}

function positiveInt(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--limit must be a whole number above 0, not "${text}"`);
  return value;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A stored value inside a line of output: every control and bidi character shown as an escape. */
const field = (value: string) => escapeUnsafe(value);

async function execute(
  command: string,
  values: ReturnType<typeof parse>["values"],
  services: Services,
  io: CliIo,
) {
  const { admin } = services;
  switch (command) {
    case "count":
      io.stdout(`${await admin.count()}\n`);
      return;
    case "list": {
      const rows = await admin.list(positiveInt(values.limit, 20));
      if (rows.length === 0) io.stdout("No registrations.\n");
      for (const r of rows) {
        const extras = [r.phone && field(r.phone), r.message && field(JSON.stringify(r.message))]
          .filter(Boolean)
          .join("  ");
        io.stdout(
          `${field(r.receivedAt)}  ${field(r.id)}  ${field(r.name)} <${field(r.email)}>${extras ? `  ${extras}` : ""}\n`,
        );
      }
      return;
    }
    case "export": {
      if ((values.format ?? "csv") !== "csv")
        throw new UsageError(`Unknown export format "${values.format}": only csv`);
      io.stdout(registrationsCsv(await admin.exportAll()));
      return;
    }
    case "show": {
      const email = requireEmail(values.email);
      const registrations = await admin.findByEmail(email);
      const erasures = await admin.erasures(email);
      if (registrations.length === 0 && erasures.length === 0) {
        io.stdout("Nothing is stored for that address.\n");
        return;
      }
      // Erasures hold no address, only a keyed hash of it: they say when and what to
      // delete from the spreadsheet (docs/decisions/079).
      io.stdout(`${JSON.stringify({ registrations, erasures }, null, 2)}\n`);
      return;
    }
    case "erase": {
      const result = await admin.eraseByEmail(requireEmail(values.email));
      io.stdout(
        `Erased ${plural(result.registrations, "registration", "registrations")} and ${plural(result.outbox, "outbox record", "outbox records")} (spreadsheet deliveries and emails) for that address.\n`,
      );
      if (result.mailFiles > 0) {
        io.stdout(
          `Deleted ${plural(result.mailFiles, "email file", "email files")} written for it under ${path.join(io.env.DATA_DIR, "mail")}.\n`,
        );
      }
      if (result.spreadsheetIds.length > 0) {
        io.stdout(
          `A copy had been sent to the spreadsheet: delete the ${plural(result.spreadsheetIds.length, "row", "rows")} with ${result.spreadsheetIds.length === 1 ? "this id" : "these ids"} there too:\n${result.spreadsheetIds.map((id) => `  ${field(id)}\n`).join("")}`,
        );
      }
      if (result.logCleared === false) {
        io.stdout(
          "The database's write-ahead log is in use by another process, so erased text may stay in it until the next checkpoint. Run the same erase again later to empty it.\n",
        );
      }
      return;
    }
    case "outbox": {
      if (values.retry) {
        const { revived, hurried } = await admin.retryOutbox();
        io.stdout(
          `Queued ${plural(revived, "failed delivery", "failed deliveries")} again and moved ${plural(hurried, "waiting delivery", "waiting deliveries")} forward; the running server sends them within seconds.\n`,
        );
        return;
      }
      const summary = await admin.outboxSummary();
      const line = (label: string, kind: keyof typeof summary.kinds) => {
        const { counts, oldestPendingAt } = summary.kinds[kind];
        const since = oldestPendingAt ? `  oldest waiting since ${oldestPendingAt}` : "";
        return `${label}  waiting ${counts.pending}  done ${counts.delivered}  failed ${counts.dead}${since}\n`;
      };
      io.stdout(line("spreadsheet", "spreadsheet"));
      if (!io.env.SPREADSHEET_URL)
        io.stdout("  The spreadsheet delivery is off: SPREADSHEET_URL is not set.\n");
      io.stdout(line("email", "mail"));
      if (!io.env.SMTP_URL)
        io.stdout(
          `  Not sent: SMTP_URL is not set, so each email is written to ${path.join(io.env.DATA_DIR, "mail")}.\n`,
        );
      for (const a of summary.announcements) {
        const { pending, delivered, dead } = a.counts;
        io.stdout(
          `announcement  ${field(a.id)}  "${field(a.subject)}"  queued ${field(a.createdAt)}: sent ${delivered}, waiting ${pending}, failed ${dead}\n`,
        );
      }
      for (const d of summary.dead) {
        io.stdout(
          `failed  ${d.kind === "spreadsheet" ? "spreadsheet" : "email"} ${d.topic}  ${field(d.registrationId)}  attempts ${d.attempts}  since ${field(d.createdAt)}  last error: ${d.lastError === null ? "none" : field(d.lastError)}\n`,
        );
      }
      if (summary.dead.length > 0)
        io.stdout("Run `outbox --retry` to send the failed ones again.\n");
      for (const e of await admin.spreadsheetErasures()) {
        io.stdout(
          `erased  ${field(e.erasedAt)}  delete from the spreadsheet the ${plural(e.spreadsheetIds.length, "row", "rows")} with id ${e.spreadsheetIds.map(field).join(", ")}\n`,
        );
      }
      return;
    }
    case "announce": {
      if (!values.subject) throw new UsageError("Give the subject with --subject");
      if (!values["text-file"]) throw new UsageError("Name the text with --text-file FILE");
      const body = await readFile(values["text-file"], "utf8").catch((error: unknown) => {
        throw new Error(
          `Could not read ${values["text-file"]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      });
      const audience = values.audience ?? "all";
      if (!isAudience(audience))
        throw new UsageError(`--audience is one of: ${AUDIENCES.join(", ")}`);
      const problem = announcementProblem(values.subject, body);
      if (problem) throw new Error(problem);
      const who =
        audience === "updates"
          ? ([
              "confirmed, subscribed address that asked for news",
              "confirmed, subscribed addresses that asked for news",
            ] as const)
          : (["confirmed, subscribed address", "confirmed, subscribed addresses"] as const);
      if (values["dry-run"]) {
        const plan = await admin.planAnnouncement(values.subject, body, audience);
        io.stdout(
          `${plural(plan.newRecipients, who[0], who[1])} would receive it${plan.alreadyQueued > 0 ? ` (${plural(plan.alreadyQueued, "address", "addresses")} already had it queued)` : ""}. Nothing was queued.\n`,
        );
        return;
      }
      // Four eyes (decision 136): queued only once a manager approved it in the console.
      const outcome = await services.announcements.fromCli({
        subject: values.subject,
        body,
        audience,
        acknowledged: values["acknowledge-warning"] === true,
      });
      const page = (id: string) => `${consoleOrigin(io.env)}/console/announcements/draft?id=${id}`;
      switch (outcome.kind) {
        case "refused":
          throw new Error(outcome.message);
        case "warning":
          throw new Error(
            `${announcementWarningWords.title}.\n${announcementWarningWords.found(outcome)}\n${announcementWarningWords.text}\nRun the command again with --acknowledge-warning once the wording has been checked.`,
          );
        case "submitted":
          io.stdout(
            `Submitted for approval; nothing was queued. A manager approves and sends it in the staff console:\n${page(outcome.draftId)}\n`,
          );
          return;
        case "waiting":
          io.stdout(
            `Not sent: this announcement is waiting for a manager's approval in the staff console (${outcome.state}); nothing was queued.\n${page(outcome.draftId)}\n`,
          );
          return;
        case "sent":
          io.stdout(`Nothing new to send: this announcement has been sent already.\n`);
          return;
      }
      const { result } = outcome;
      if (result.newRecipients === 0) {
        io.stdout(
          `Nothing new to send: ${plural(result.alreadyQueued, "address", "addresses")} already had announcement ${result.announcementId} queued, and no one else qualifies.\n`,
        );
        return;
      }
      io.stdout(
        `Queued announcement ${result.announcementId} for ${plural(result.newRecipients, "address", "addresses")}, ${io.env.MAIL_PER_MINUTE} a minute, from ${result.firstAt} to ${result.lastAt}. The running server sends them; \`outbox\` shows progress.\n`,
      );
      return;
    }
    case "purge": {
      if (values.unconfirmed) {
        const { cutoff, deleted } = await admin.purgeUnconfirmed();
        io.stdout(
          `Deleted ${plural(deleted, "unconfirmed registration", "unconfirmed registrations")} received before ${cutoff}.\n`,
        );
        return;
      }
      const { cutoff, deleted } = await admin.purgeOlderThan(
        parseAge(values["older-than"] ?? "24m"),
      );
      io.stdout(
        `Deleted ${plural(deleted, "registration", "registrations")} received before ${cutoff}.\n`,
      );
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

async function backupCommand(values: ReturnType<typeof parse>["values"], io: CliIo) {
  if (!values.to) throw new UsageError("Name the backup file with --to FILE");
  if (io.env.DATABASE_URL) {
    throw new Error(
      'backup copies the embedded SQLite database only. With DATABASE_URL (PostgreSQL), use pg_dump instead, e.g.\n  pg_dump --format=custom --file=registrations.dump "$DATABASE_URL"\n(docs/operations.md, Backups).',
    );
  }
  const result = await backupSqlite(io.env.DATA_DIR, values.to, {
    overwrite: values.force === true,
  });
  io.stdout(
    `Backed up ${plural(result.registrations, "registration", "registrations")} to ${result.file} (integrity check: ${result.integrity}).\n`,
  );
}

/** The staff console's recovery commands (`npm run staff -- …`), through the console's own operations. */
async function executeStaff(
  command: string,
  values: ReturnType<typeof parse>["values"],
  services: Services,
  io: CliIo,
) {
  const operations = createStaffOperations({
    store: services.staff,
    consoleOrigin: consoleOrigin(io.env),
    mailer: io.env.SMTP_URL ? services.mailer : undefined,
  });
  const { email, role } = values;
  switch (command) {
    case "invite": {
      if (!email) throw new UsageError("Give the address with --email someone@clinic.example");
      if (!STAFF_ROLES.includes(role as StaffRole)) {
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
          `${p.email}  ${p.role}  ${plural(p.passkeys, "passkey", "passkeys")}  last sign-in ${p.lastSignInAt ?? "never"}\n`,
        );
      }
      for (const i of await services.staff.pendingInvites()) {
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

/** Runs one CLI command; returns the process exit code (0 ok, 1 failure, 2 usage). */
export async function runCli(args: string[], rawIo: CliIo): Promise<number> {
  // Whatever a command prints, no stored text reaches the terminal as a control
  // sequence: the last line of defence behind each command's own formatting
  // (docs/decisions/077). A CSV export keeps its record breaks and tabs.
  let csvOutput = false;
  const io: CliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(escapeUnsafe(text, csvOutput ? CSV_TEXT : LINES)),
    stderr: (text) => rawIo.stderr(escapeUnsafe(text, LINES)),
  };
  let services: Services | undefined;
  // `npm run staff -- …` is this CLI with "staff" first: the console's recovery commands.
  const staff = args[0] === "staff";
  const usage = staff ? STAFF_USAGE : USAGE;
  try {
    const { values, positionals } = parse(staff ? args.slice(1) : args);
    const [command, ...extra] = positionals;
    if (values.help || command === "help") {
      io.stdout(usage);
      return 0;
    }
    if (!command) throw new UsageError("Name a command");
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}"`);
    csvOutput = command === "export";
    if (command === "backup") {
      await backupCommand(values, io);
      return 0;
    }
    services = await io.openServices(io.env);
    await (staff ? executeStaff : execute)(command, values, services, io);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      io.stderr(`${message}\n\n${usage}`);
      return 2;
    }
    io.stderr(`${message}\n`);
    return 1;
  } finally {
    await services?.close();
  }
}
