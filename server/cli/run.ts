import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";

import { announcementWarningWords } from "../../app/content/console.ts";
import { STAFF_ROLES, type StaffRole } from "../../contract/console.ts";
import { AUDIENCES, announcementProblem, isAudience } from "../announcements/queue.ts";
import { createStaffOperations, type StaffOperations } from "../console/operations.ts";
import { backupSqlite } from "../db/backup.ts";
import { consoleOrigin, type Env } from "../env.ts";
import { parseAge } from "../operator/admin.ts";
import type { Services } from "../services.ts";
import { registrationsCsv } from "../shared/csv.ts";

/** What a terminal acts on or reorders (decision 077): C0, DEL, C1, bidi, U+2028 and U+2029. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;

/** What a line-oriented command may print raw: its own line breaks. */
export const LINES = /\n/y;
/** A CSV export's record breaks and the whitespace of quoted multi-line messages round-trip. */
export const CSV_TEXT = /[\t\n\r]/y;

/** Every unsafe character but those `keep` matches as a visible escape (`\u009b`). */
export function escapeUnsafe(text: string, keep?: RegExp): string {
  return text.replace(UNSAFE, (char, offset: number) => {
    if (keep) {
      keep.lastIndex = offset;
      if (keep.test(text)) return char;
    }
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

const USAGE = `Usage: npm run --silent registrations -- <command> [options]

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
                           set). Never for the address of someone on the staff: see reset.
  list                     Staff, their roles and passkeys, and invitations not yet used
  revoke --email <address> Remove someone: their sessions end at once, their passkeys go
  reset --email <address>  For a lost passkey: end their sessions and passkeys, and print a
                           new invitation for them with the same role (even the last manager)
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

type Values = ReturnType<typeof parse>["values"];

function requireEmail(email: string | undefined): string {
  if (!email?.includes("@"))
    throw new UsageError("Give the address with --email someone@example.com");
  return email;
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

const field = (value: string) => escapeUnsafe(value);

/** What a command prints: a text as it is (the CSV export), or lines; `false` leaves one out. */
type Output = string | Array<string | false>;

async function execute(
  command: string,
  values: Values,
  services: Services,
  io: CliIo,
): Promise<Output> {
  const { admin } = services;
  switch (command) {
    case "count":
      return [`${await admin.count()}`];
    case "list": {
      const limit = Number(values.limit ?? 20);
      if (!Number.isInteger(limit) || limit < 1)
        throw new UsageError(`--limit must be a whole number above 0, not "${values.limit}"`);
      const rows = await admin.list(limit);
      if (rows.length === 0) return ["No registrations."];
      return rows.map((r) => {
        const extras = [r.phone && field(r.phone), r.message && field(JSON.stringify(r.message))]
          .filter(Boolean)
          .join("  ");
        return `${field(r.receivedAt)}  ${field(r.id)}  ${field(r.name)} <${field(r.email)}>${extras ? `  ${extras}` : ""}`;
      });
    }
    case "export": {
      if ((values.format ?? "csv") !== "csv")
        throw new UsageError(`Unknown export format "${values.format}": only csv`);
      return registrationsCsv(await admin.exportAll());
    }
    case "show": {
      const email = requireEmail(values.email);
      const registrations = await admin.findByEmail(email);
      const erasures = await admin.erasures(email);
      if (registrations.length === 0 && erasures.length === 0)
        return ["Nothing is stored for that address."];
      // Erasures hold only a keyed hash of the address (decision 079).
      return [JSON.stringify({ registrations, erasures }, null, 2)];
    }
    case "erase": {
      const result = await admin.eraseByEmail(requireEmail(values.email));
      const ids = result.spreadsheetIds;
      return [
        `Erased ${plural(result.registrations, "registration", "registrations")} and ${plural(result.outbox, "outbox record", "outbox records")} (spreadsheet deliveries and emails) for that address.`,
        result.mailFiles > 0 &&
          `Deleted ${plural(result.mailFiles, "email file", "email files")} written for it under ${path.join(io.env.DATA_DIR, "mail")}.`,
        ids.length > 0 &&
          `A copy had been sent to the spreadsheet: delete the ${plural(ids.length, "row", "rows")} with ${ids.length === 1 ? "this id" : "these ids"} there too:\n${ids.map((id) => `  ${field(id)}`).join("\n")}`,
        result.logCleared === false &&
          "The database's write-ahead log is in use by another process, so erased text may stay in it until the next checkpoint. Run the same erase again later to empty it.",
      ];
    }
    case "outbox":
      return outboxCommand(values, services.admin, io);
    case "announce":
      return announceCommand(values, services, io);
    case "purge": {
      const { cutoff, deleted } = values.unconfirmed
        ? await admin.purgeUnconfirmed()
        : await admin.purgeOlderThan(parseAge(values["older-than"] ?? "24m"));
      const what = values.unconfirmed ? "unconfirmed registration" : "registration";
      return [`Deleted ${plural(deleted, what, `${what}s`)} received before ${cutoff}.`];
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** `outbox`: the deliveries waiting, done and failed, and the announcements under way. */
async function outboxCommand(values: Values, admin: Services["admin"], io: CliIo): Promise<Output> {
  if (values.retry) {
    const { revived, hurried } = await admin.retryOutbox();
    return [
      `Queued ${plural(revived, "failed delivery", "failed deliveries")} again and moved ${plural(hurried, "waiting delivery", "waiting deliveries")} forward; the running server sends them within seconds.`,
    ];
  }
  const summary = await admin.outboxSummary();
  const erasures = await admin.spreadsheetErasures();
  /** For a send under way: how fast it goes now, and when it should be done. */
  const pace = async (id: string, waiting: number) => {
    if (waiting === 0) return "";
    const p = await admin.announcementProgress(id);
    const finish = p.finishAt
      ? `done about ${p.finishAt} (in ${p.finishIn})`
      : "no finish time yet: none sent in the last minute";
    const slowed = p.slowedDown ? "; the mail server asked us to slow down" : "";
    return `; ${p.perMinute} a minute now, ${finish}${slowed}`;
  };
  const line = (label: string, kind: keyof typeof summary.kinds) => {
    const { counts, oldestPendingAt } = summary.kinds[kind];
    const since = oldestPendingAt ? `  oldest waiting since ${oldestPendingAt}` : "";
    return `${label}  waiting ${counts.pending}  done ${counts.delivered}  failed ${counts.dead}${since}`;
  };
  return [
    line("spreadsheet", "spreadsheet"),
    !io.env.SPREADSHEET_URL && "  The spreadsheet delivery is off: SPREADSHEET_URL is not set.",
    line("email", "mail"),
    !io.env.SMTP_URL &&
      `  Not sent: SMTP_URL is not set, so each email is written to ${path.join(io.env.DATA_DIR, "mail")}.`,
    summary.slowedDown > 0 &&
      `  The mail server asked us to slow down: ${plural(summary.slowedDown, "email waits", "emails wait")} to be tried again. Sending pauses for a minute, then goes on fewer connections until it is accepted again.`,
    ...(await Promise.all(
      summary.announcements.map(
        async ({ id, subject, createdAt, counts }) =>
          `announcement  ${field(id)}  "${field(subject)}"  queued ${field(createdAt)}: sent ${counts.delivered}, waiting ${counts.pending}, failed ${counts.dead}${await pace(id, counts.pending)}`,
      ),
    )),
    ...summary.dead.map(
      (d) =>
        `failed  ${d.kind === "spreadsheet" ? "spreadsheet" : "email"} ${d.topic}  ${field(d.registrationId)}  attempts ${d.attempts}  since ${field(d.createdAt)}  last error: ${d.lastError === null ? "none" : field(d.lastError)}`,
    ),
    summary.dead.length > 0 && "Run `outbox --retry` to send the failed ones again.",
    ...erasures.map(
      (e) =>
        `erased  ${field(e.erasedAt)}  delete from the spreadsheet the ${plural(e.spreadsheetIds.length, "row", "rows")} with id ${e.spreadsheetIds.map(field).join(", ")}`,
    ),
  ];
}

/** `announce`: a dry run's count, or the draft's place on the four-eyes path (decision 136). */
async function announceCommand(values: Values, services: Services, io: CliIo): Promise<Output> {
  const { admin } = services;
  if (!values.subject) throw new UsageError("Give the subject with --subject");
  if (!values["text-file"]) throw new UsageError("Name the text with --text-file FILE");
  const body = await readFile(values["text-file"], "utf8").catch((error: unknown) => {
    throw new Error(
      `Could not read ${values["text-file"]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  });
  const audience = values.audience ?? "all";
  if (!isAudience(audience)) throw new UsageError(`--audience is one of: ${AUDIENCES.join(", ")}`);
  const problem = announcementProblem(values.subject, body);
  if (problem) throw new Error(problem);
  if (values["dry-run"]) {
    const plan = await admin.planAnnouncement(values.subject, body, audience);
    const who = `confirmed, subscribed address${plan.newRecipients === 1 ? "" : "es"}${audience === "updates" ? " that asked for news" : ""}`;
    return [
      `${plan.newRecipients} ${who} would receive it${plan.alreadyQueued > 0 ? ` (${plural(plan.alreadyQueued, "address", "addresses")} already had it queued)` : ""}. Nothing was queued.`,
    ];
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
      return [
        `Submitted for approval; nothing was queued. A manager approves and sends it in the staff console:\n${page(outcome.draftId)}`,
      ];
    case "waiting":
      return [
        `Not sent: this announcement is waiting for a manager's approval in the staff console (${outcome.state}); nothing was queued.\n${page(outcome.draftId)}`,
      ];
    case "sent":
      return ["Nothing new to send: this announcement has been sent already."];
  }
  const { result } = outcome;
  if (result.newRecipients === 0) {
    return [
      `Nothing new to send: ${plural(result.alreadyQueued, "address", "addresses")} already had announcement ${result.announcementId} queued, and no one else qualifies.`,
    ];
  }
  return [
    `Queued announcement ${result.announcementId} for ${plural(result.newRecipients, "address", "addresses")}, ${io.env.MAIL_PER_MINUTE} a minute, from ${result.firstAt} to ${result.lastAt}. The running server sends them; \`outbox\` shows progress.`,
  ];
}

async function backupCommand(values: Values, io: CliIo) {
  if (!values.to) throw new UsageError("Name the backup file with --to FILE");
  if (io.env.DATABASE_URL) {
    throw new Error(
      'backup copies the embedded SQLite database only. With DATABASE_URL (PostgreSQL), use pg_dump instead, e.g.\n  pg_dump --format=custom --file=registrations.dump "$DATABASE_URL"\n(docs/operations.md, Backups).',
    );
  }
  const result = await backupSqlite(io.env.DATA_DIR, values.to, {
    overwrite: values.force === true,
  });
  return [
    `Backed up ${plural(result.registrations, "registration", "registrations")} to ${result.file} (integrity check: ${result.integrity}).`,
  ];
}

/** An invitation made at the terminal: its link is always the last line. */
function invitationLines(result: Awaited<ReturnType<StaffOperations["invite"]>>): string[] {
  if (!result.ok) throw new Error(result.message);
  const { invitation, link } = result.pending ? {} : result;
  if (!invitation || !link) throw new Error("No invitation was made.");
  return [
    `Invitation for ${invitation.email} as ${invitation.role}, valid once until ${invitation.expiresAt}${invitation.emailed ? "; emailed" : ""}. The enrolment link:\n${link}`,
  ];
}

/** `npm run staff -- …`, through the console's own operations. */
async function executeStaff(
  command: string,
  values: Values,
  services: Services,
  io: CliIo,
): Promise<Output> {
  const operations = createStaffOperations({
    store: services.staff,
    consoleOrigin: consoleOrigin(io.env),
    mailer: io.env.SMTP_URL ? services.mailer : undefined,
  });
  const { email = "", role } = values;
  const noEmail = () => new UsageError("Give the address with --email someone@clinic.example");
  switch (command) {
    case "invite": {
      if (!email) throw noEmail();
      if (!STAFF_ROLES.includes(role as StaffRole)) {
        throw new UsageError("Give the role with --role viewer or --role manager");
      }
      return invitationLines(await operations.invite(null, email, role as StaffRole));
    }
    case "reset": {
      if (!email) throw noEmail();
      return [
        `Reset ${email.trim().toLowerCase()}: signed out everywhere, passkeys deleted.`,
        ...invitationLines(await operations.resetByEmail(email)),
      ];
    }
    case "list": {
      const people = await operations.list();
      const invites = await services.staff.pendingInvites();
      return [
        people.length === 0 && "No staff yet: invite the first manager with `staff -- invite`.",
        ...people.map(
          (p) =>
            `${p.email}  ${p.role}  ${plural(p.passkeys, "passkey", "passkeys")}  last sign-in ${p.lastSignInAt ?? "never"}`,
        ),
        ...invites.map((i) => `invited  ${i.email}  ${i.role}  until ${i.expires_at}`),
      ];
    }
    case "revoke": {
      if (!email) throw noEmail();
      const result = await operations.revokeByEmail(null, email);
      if (!result.ok) throw new Error(result.message);
      return [`Removed ${email.trim().toLowerCase()}: signed out everywhere, passkeys deleted.`];
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Runs one CLI command; returns the process exit code (0 ok, 1 failure, 2 usage). */
export async function runCli(args: string[], rawIo: CliIo): Promise<number> {
  // The last line of defence: no stored text reaches the terminal as a control (077).
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
    let output: Output;
    if (command === "backup") output = await backupCommand(values, io);
    else {
      services = await io.openServices(io.env);
      output = await (staff ? executeStaff : execute)(command, values, services, io);
    }
    if (typeof output !== "string") {
      output = output.flatMap((line) => (line === false ? [] : `${line}\n`)).join("");
    }
    if (output) io.stdout(output);
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
