import { writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { validateRegistration } from "../../app/features/registration/form.ts";
import { sqliteBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { CSV_TEXT, escapeUnsafe, LINES, runCli } from "./run.ts";
import { openServices } from "../services.ts";
import { confirmToken, unsubscribeToken } from "../shared/links.ts";

const logger = createLogger("silent");
const NOW = "2026-06-15T12:00:00.000Z";
let place: TestPlace;
let clock: Date;

beforeEach(async () => {
  place = await sqliteBackend.fresh({
    SPREADSHEET_URL: "http://127.0.0.1:9/sheet",
    SPREADSHEET_SECRET: "s".repeat(32),
  });
  clock = new Date(NOW);
});
afterEach(() => place.drop());

const open = () => openServices(place.env, logger, { now: () => clock });
type Services = Awaited<ReturnType<typeof open>>;

async function withServices<T>(act: (services: Services) => Promise<T>): Promise<T> {
  const services = await open();
  try {
    return await act(services);
  } finally {
    await services.close();
  }
}

/** The database opened directly, as staff tooling or an old row would have it. */
function direct<T>(act: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
  const result = act(db);
  db.close();
  return result;
}
const update = (statement: string, ...params: string[]) =>
  direct((db) => db.prepare(statement).run(...params));

async function cli(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    env: place.env,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    openServices: open,
  });
  return { code, stdout, stderr };
}
const out = async (...args: string[]) => (await cli(...args)).stdout;

/**
 * What a manager does in the console between the two runs of `announce` (decision 136):
 * approves the draft the CLI submitted, through the same operation.
 */
async function approveInConsole(stdout: string) {
  const id = /\/console\/announcements\/draft\?id=([\w-]+)\n/.exec(stdout)?.[1] ?? "";
  expect(stdout).toMatch(/^Submitted for approval; nothing was queued\./);
  const manager = { id: `m-${id}`, email: `m-${id}@clinic.example`, role: "manager" as const };
  const staff = "insert into staff (id, email, role, created_at) values (?, ?, ?, ?)";
  update(staff, manager.id, manager.email, manager.role, clock.toISOString());
  await withServices(async ({ announcements }) => {
    const { version } = (await announcements.view(manager, id)) ?? {};
    expect(await announcements.step(manager, id, "approve", { version })).toEqual({ ok: true });
  });
}

async function seed(
  people: Array<{ name: string; email: string; at: string; message?: string; updates?: boolean }>,
) {
  const ids: string[] = [];
  await withServices(async ({ registrations }) => {
    for (const [i, p] of people.entries()) {
      clock = new Date(p.at);
      const { registration } = await registrations.register({
        name: p.name,
        email: p.email,
        phone: null,
        message: p.message ?? null,
        clientTimestamp: p.at,
        idempotencyKey: `cli-${i}`,
        consent: { version: "2026-11-23", wantsUpdates: p.updates ?? false },
      });
      ids.push(registration.id);
    }
  });
  clock = new Date(NOW);
  return ids;
}

/** Confirms `ids` from links sent at `sent`, pressed at `pressed`; then unsubscribes `off`. */
async function confirmAndUnsubscribe(ids: string[], off: string, sent: string, pressed: string) {
  const key = direct(
    (db) => (db.prepare("select hmac_key from link_key").get() as { hmac_key: string }).hmac_key,
  );
  await withServices(async ({ registrations }) => {
    clock = new Date(pressed);
    for (const id of ids) await registrations.confirm(confirmToken(key, id, new Date(sent)));
    await registrations.unsubscribe(unsubscribeToken(key, off));
  });
  clock = new Date(NOW);
}

const queuedAnnouncements = () =>
  direct((db) =>
    db.prepare("select registration_id from outbox where topic = 'announcement'").all(),
  )
    .map((r) => r.registration_id)
    .sort();

const erased = (sentToSpreadsheet: boolean, spreadsheetIds: unknown[]) => ({
  registrations: [],
  erasures: [{ erasedAt: NOW, registrations: 1, sentToSpreadsheet, spreadsheetIds }],
});
const ERASED =
  "Erased 1 registration and 2 outbox records (spreadsheet deliveries and emails) for that address.\n";
const mailNotSent = () =>
  `  Not sent: SMTP_URL is not set, so each email is written to ${path.join(place.env.DATA_DIR, "mail")}.\n`;

describe("registrations CLI", () => {
  it("counts, and lists the most recent first within the limit", async () => {
    await seed([
      { name: "Ann Old", email: "ann@example.com", at: "2026-06-01T09:00:00.000Z" },
      { name: "Ben New", email: "ben@example.com", at: "2026-06-10T09:00:00.000Z", message: "Hi" },
    ]);
    expect(await cli("count")).toEqual({ code: 0, stdout: "2\n", stderr: "" });
    const listed = await cli("list", "--limit", "1");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^2026-06-10T09:00:00.000Z {2}[0-9a-f-]{36} {2}Ben New <ben@example.com> {2}"Hi"\n$/,
    );
  });

  it("exports every registration as CSV with formulas defused", async () => {
    const [id] = await seed([
      { name: "=1+1", email: "c@example.com", at: "2026-06-01T09:00:00.000Z" },
    ]);
    const { code, stdout } = await cli("export", "--format", "csv");
    expect(code).toBe(0);
    expect(stdout).toBe(
      "id,received_at,client_timestamp,name,email,phone,message,consent_version,wants_updates,confirmed_at,unsubscribed_at\r\n" +
        `${id},2026-06-01T09:00:00.000Z,2026-06-01T09:00:00.000Z,'=1+1,c@example.com,,,2026-11-23,no,,\r\n`,
    );
    expect((await cli("export", "--format", "xlsx")).code).toBe(2);
  });

  it("shows everything for an address, then erases it with its forwarding records", async () => {
    const [id] = await seed([
      { name: "Dee", email: "dee@example.com", at: "2026-06-01T09:00:00.000Z" },
      { name: "Eve", email: "eve@example.com", at: "2026-06-02T09:00:00.000Z" },
    ]);
    const shown = await cli("show", "--email", "DEE@example.com");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      registrations: [
        expect.objectContaining({
          id,
          name: "Dee",
          delivery: { status: "pending", attempts: 0, deliveredAt: null },
        }),
      ],
      erasures: [],
    });

    expect(await out("erase", "--email", "dee@example.com")).toBe(ERASED);
    // Nothing of Dee is left but the record of the erasure; nothing went to the sheet.
    expect(JSON.parse(await out("show", "--email", "dee@example.com"))).toEqual(erased(false, []));
    expect(await out("show", "--email", "nobody@example.com")).toBe(
      "Nothing is stored for that address.\n",
    );
    expect(await out("count")).toBe("1\n");
    expect(await out("outbox")).toBe(
      "spreadsheet  waiting 1  done 0  failed 0  oldest waiting since 2026-06-02T09:00:00.000Z\n" +
        "email  waiting 1  done 0  failed 0  oldest waiting since 2026-06-02T09:00:00.000Z\n" +
        mailNotSent(),
    );
  });

  it("after erasing a forwarded registration, tells staff which spreadsheet row to delete", async () => {
    const [id] = await seed([
      { name: "Fay", email: "fay@example.com", at: "2026-06-01T09:00:00.000Z" },
    ]);
    update("update outbox set status = 'delivered', attempts = 1");

    expect(await out("erase", "--email", "FAY@example.com")).toBe(
      ERASED +
        `A copy had been sent to the spreadsheet: delete the 1 row with this id there too:\n  ${id}\n`,
    );
    expect(JSON.parse(await out("show", "--email", "fay@example.com"))).toEqual(erased(true, [id]));
    expect(await out("outbox")).toBe(
      "spreadsheet  waiting 0  done 0  failed 0\n" +
        "email  waiting 0  done 0  failed 0\n" +
        mailNotSent() +
        `erased  ${NOW}  delete from the spreadsheet the 1 row with id ${id}\n`,
    );
  });

  it("purges by age, 24 months unless told otherwise", async () => {
    await seed([
      { name: "Very old", email: "f@example.com", at: "2024-01-01T00:00:00.000Z" },
      { name: "Recent", email: "g@example.com", at: "2026-05-01T00:00:00.000Z" },
    ]);
    expect((await cli("purge")).stdout).toBe(
      "Deleted 1 registration received before 2024-06-15T12:00:00.000Z.\n",
    );
    expect((await cli("purge", "--older-than", "30d")).stdout).toBe(
      "Deleted 1 registration received before 2026-05-16T12:00:00.000Z.\n",
    );
    expect((await cli("count")).stdout).toBe("0\n");
  });

  it("reports the outbox and queues dead deliveries again", async () => {
    await seed([{ name: "Hal", email: "h@example.com", at: "2026-06-01T00:00:00.000Z" }]);
    update(
      "update outbox set status = 'dead', attempts = 12, last_error = '550 mailbox unavailable' where kind = 'mail'",
    );
    const failed = await out("outbox");
    expect(failed).toContain("email  waiting 0  done 0  failed 1\n");
    expect(failed).toMatch(
      /failed {2}email confirmation {2}[0-9a-f-]{36} {2}attempts 12 {2}since 2026-06-01T00:00:00.000Z {2}last error: 550 mailbox unavailable\n/,
    );
    expect(failed).toContain("Run `outbox --retry` to send the failed ones again.");
    expect(await out("outbox", "--retry")).toMatch(
      /^Queued 1 failed delivery again and moved 0 waiting deliveries forward/,
    );
  });

  it("announces with --audience updates only to those who asked for news, once; --dry-run counts them", async () => {
    const ids = await seed([
      { name: "Ada", email: "ada@example.com", at: "2026-06-01T09:00:00.000Z", updates: true },
      { name: "Bo", email: "bo@example.com", at: "2026-06-02T09:00:00.000Z", updates: false },
      { name: "Cy", email: "cy@example.com", at: "2026-06-03T09:00:00.000Z", updates: true },
      { name: "Di", email: "di@example.com", at: "2026-06-04T09:00:00.000Z", updates: true },
      // Ed asked for news, then registered again without: the newer choice stands.
      { name: "Ed", email: "ed@example.com", at: "2026-06-05T09:00:00.000Z", updates: true },
      { name: "Ed", email: "ed@example.com", at: "2026-06-06T09:00:00.000Z", updates: false },
    ]);
    const [ada, bo, cy, , ed1, ed2] = ids as [string, string, string, string, string, string];
    await confirmAndUnsubscribe([ada, bo, cy, ed1, ed2], cy, "2026-06-06T10:00Z", "2026-06-07");
    // Only Ada: Bo did not ask, Cy unsubscribed, Di never confirmed, Ed's newest did not ask.

    const text = path.join(place.env.DATA_DIR, "news.txt");
    await writeFile(text, "Our prices are now on the site.\n");
    const args = ["announce", "--subject", "News", "--text-file", text];
    expect(await out(...args, "--audience", "updates", "--dry-run")).toBe(
      "1 confirmed, subscribed address that asked for news would receive it. Nothing was queued.\n",
    );
    await approveInConsole(await out(...args, "--audience", "updates"));
    expect(await out(...args, "--audience", "updates")).toMatch(
      /^Queued announcement [0-9a-f]{32} for 1 address,/,
    );
    expect(queuedAnnouncements()).toEqual([ada]);
    // The same text to everyone later: once per address, so Ada does not get it again.
    await approveInConsole(await out(...args));
    expect(await out(...args)).toMatch(/^Queued announcement [0-9a-f]{32} for 2 addresses/);
    expect(queuedAnnouncements()).toEqual([ada, bo, ed2].sort());
    expect(await cli(...args, "--audience", "friends")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--audience is one of: all, updates") as unknown,
    });
  });

  it("announces to confirmed, subscribed addresses once, at MAIL_PER_MINUTE, and a second run sends nothing", async () => {
    const ids = await seed([
      { name: "Ada", email: "ada@example.com", at: "2026-06-01T09:00:00.000Z" },
      { name: "Ada again", email: "ADA@example.com", at: "2026-06-02T09:00:00.000Z" },
      { name: "Bo", email: "bo@example.com", at: "2026-06-03T09:00:00.000Z" },
      { name: "Cy", email: "cy@example.com", at: "2026-06-04T09:00:00.000Z" },
      { name: "Di", email: "di@example.com", at: "2026-06-05T09:00:00.000Z" },
    ]);
    const [ada, adaAgain, bo, cy] = ids as [string, string, string, string, string];
    await confirmAndUnsubscribe([ada, adaAgain, bo, cy], cy, "2026-06-10T00:00Z", "2026-06-12");
    // Ada (one address, twice) and Bo qualify; Cy unsubscribed; Di never confirmed.

    const text = path.join(place.env.DATA_DIR, "launch.txt");
    await writeFile(text, "We are open.\n\nBook a consultation from today.\n");
    const args = ["announce", "--subject", "We are open", "--text-file", text];
    expect(await out(...args, "--dry-run")).toBe(
      "2 confirmed, subscribed addresses would receive it. Nothing was queued.\n",
    );
    // Nothing goes before a manager approves it in the console, however often it is run.
    const submitted = await cli(...args);
    expect(submitted.code).toBe(0);
    expect(await out(...args)).toMatch(
      /^Not sent: this announcement is waiting for a manager's approval in the staff console \(submitted\)/,
    );
    await approveInConsole(submitted.stdout);
    const first = await cli(...args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Queued announcement [0-9a-f]{32} for 2 addresses, 60 a minute, from 2026-06-15T12:00:00.000Z to 2026-06-15T12:00:01.000Z\./,
    );
    expect(queuedAnnouncements()).toEqual([adaAgain, bo].sort());

    expect(await out(...args)).toMatch(
      /^Nothing new to send: 2 addresses already had announcement/,
    );
    expect(await out(...args, "--dry-run")).toBe(
      "0 confirmed, subscribed addresses would receive it (2 addresses already had it queued). Nothing was queued.\n",
    );
    expect(await out("outbox")).toMatch(
      /announcement {2}[0-9a-f]{32} {2}"We are open" {2}queued 2026-06-15T12:00:00.000Z: sent 0, waiting 2, failed 0; 0 a minute now, done about 2026-06-15T12:00:01.000Z \(in 1 s\)\n/,
    );
    // Half a minute later one went and the mail server told the other to wait (451): the rate
    // is over those 30 s, and the slow-down is said in words.
    update(
      "update outbox set status = 'delivered', attempts = 1, delivered_at = '2026-06-15T11:59:30.000Z' where registration_id = ?",
      bo,
    );
    update(
      "update outbox set attempts = 1, last_error = 'SMTP 451 4.7.0', next_attempt_at = '2026-06-15T12:00:45.000Z' where registration_id = ?",
      adaAgain,
    );
    const report = await out("outbox");
    expect(report).toContain(
      "  The mail server asked us to slow down: 1 email waits to be tried again.",
    );
    expect(report).toMatch(
      /"We are open" {2}queued \S+: sent 1, waiting 1, failed 0; 2 a minute now, done about 2026-06-15T12:00:30.000Z \(in 30 s\); the mail server asked us to slow down\n/,
    );
    // Another text is another announcement, approved on its own.
    await writeFile(text, "Opening hours have changed.\n");
    await approveInConsole(await out(...args));
    expect(await out(...args)).toMatch(/^Queued announcement [0-9a-f]{32} for 2 addresses/);

    expect(
      await cli("announce", "--subject", "x", "--text-file", "/nonexistent/f.txt"),
    ).toMatchObject({ code: 1, stderr: "Could not read /nonexistent/f.txt: ENOENT\n" });
    await writeFile(text, "   \n");
    expect((await cli(...args)).stderr).toBe("The text is empty.\n");
  });

  it("refuses to submit a text naming a prescription-only medicine or a price until acknowledged", async () => {
    const text = path.join(place.env.DATA_DIR, "offer.txt");
    await writeFile(text, "Nebido from £45 a month.\n");
    const args = ["announce", "--subject", "Offer", "--text-file", text];
    const refused = await cli(...args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Medicines named: nebido. Prices: £45.");
    expect(refused.stderr).toContain("regulation 284 of the Human Medicines Regulations 2012");
    const drafts = () =>
      direct((db) =>
        db.prepare("select state, warning_acknowledged_at from announcement_drafts").all(),
      );
    expect(drafts()).toEqual([]);
    expect(await out(...args, "--acknowledge-warning")).toMatch(/^Submitted for approval/);
    expect(drafts()).toEqual([
      { state: "submitted", warning_acknowledged_at: expect.any(String) as unknown },
    ]);
  });

  it("purges unconfirmed registrations on demand", async () => {
    await seed([
      { name: "Old", email: "o@example.com", at: "2026-05-01T00:00:00.000Z" },
      { name: "New", email: "n@example.com", at: "2026-06-14T00:00:00.000Z" },
    ]);
    expect((await cli("purge", "--unconfirmed")).stdout).toBe(
      "Deleted 1 unconfirmed registration received before 2026-05-16T12:00:00.000Z.\n",
    );
    expect((await cli("count")).stdout).toBe("1\n");
  });

  it("explains mistakes on stderr with a non-zero exit", async () => {
    for (const args of [
      [],
      ["frobnicate"],
      ["show"],
      ["erase", "--email", "not-an-address"],
      ["list", "--limit", "0"],
      ["count", "--colour"],
      ["announce", "--subject", "x"],
      ["announce", "--text-file", "news.txt"],
    ]) {
      const result = await cli(...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("Usage: npm run --silent registrations");
    }
    const badAge = await cli("purge", "--older-than", "soon");
    expect(badAge).toMatchObject({ code: 1, stdout: "" });
    expect(badAge.stderr).toMatch(/Cannot read the age "soon"/);
  });
});

describe("staff CLI (decision 175)", () => {
  it("refuses to invite a member's address, and resets even the last manager with a new link", async () => {
    const invite = (email: string, role: string) =>
      cli("staff", "invite", "--email", email, "--role", role);
    const invited = await invite("boss@clinic.example", "manager");
    expect(invited.code).toBe(0);
    const link = new URL(invited.stdout.trim().split("\n").at(-1) ?? "");
    const key = {
      id: "boss-key",
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: [],
    };
    await withServices(async ({ staff }) => {
      const person = await staff.enrol(link.searchParams.get("token") ?? "", key);
      expect(person).toMatchObject({ role: "manager" });
    });
    const again = await invite("Boss@clinic.example", "viewer");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("boss@clinic.example is already on the staff list");
    expect(again.stdout).toBe("");

    const reset = await cli("staff", "reset", "--email", "boss@clinic.example");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      /^Reset boss@clinic\.example: signed out everywhere, passkeys deleted\.\nInvitation for boss@clinic\.example as manager, valid once until \S+\. The enrolment link:\n\S+\/console\/enrol\?token=[\w-]{43}\n$/,
    );
    await withServices(async ({ staff }) => {
      expect(await staff.passkey("boss-key")).toBeNull();
      expect(await staff.invitations()).toEqual([
        expect.objectContaining({ email: "boss@clinic.example", reset: true, invitedBy: null }),
      ]);
    });
  });
});

describe("registrations CLI and hostile text", () => {
  // Clears the screen (CSI via C1), sets the window title and writes the clipboard
  // (OSC via C1, OSC 52), rings the bell, and reverses what follows (bidi override).
  const name = "Eve\u009b2J\u009d0;pwned\u009c\u009d52;c;ZXZpbA==\u0007 \u202eexe.txt\u202c";
  const email = "mallory\u2066\u0085@example.com";
  const phone = "\u001b+44 7700 900123\u200f";
  const message = "Hi\u009b0m\r\nline two\u2028\u2067three\u2069\tend\u001b]8;;http://x\u0007";

  it("registers nothing hostile through the schema", () => {
    const result = validateRegistration({ name, email, phone, message });
    expect(result.success).toBe(true);
    if (!result.success) return;
    for (const value of Object.values(result.data)) {
      // The schema leaves only what a person types: letters, and a message's line breaks.
      expect(escapeUnsafe(value ?? "", /[\t\n]|\r(?=\n)/y), JSON.stringify(value)).toBe(
        value ?? "",
      );
    }
  });

  it("prints no raw control or bidi character in any command, for rows the schema never saw", async () => {
    // Rows stored before the schema stripped these, or written to the database directly.
    await withServices(({ registrations }) =>
      registrations.register({
        name,
        email,
        phone,
        message,
        clientTimestamp: "2026-06-01T09:00:00.000Z\u009b",
        idempotencyKey: "hostile-1",
        consent: { version: "2026-11-23", wantsUpdates: false },
      }),
    );
    update(
      "update outbox set status = 'dead', attempts = 16, last_error = ?",
      "HTTP 500 \u009b2J\u202e",
    );

    const outputs: Record<string, string> = {};
    // Each command line, split at its spaces (none of the hostile text has an ASCII space).
    for (const label of [
      "help",
      "count",
      "list",
      "export --format csv",
      `show --email ${email}`,
      "show --email MALLORY\u2066\u0085@EXAMPLE.COM",
      "outbox",
      "frobnicate\u009b2J",
      "outbox --retry",
      `erase --email ${email}`,
      `show --email ${email}`,
      "purge",
    ]) {
      const { stdout, stderr } = await cli(...label.split(" "));
      outputs[label] = stdout;
      for (const [name, text, keep] of [
        ["stdout", stdout, label === "export --format csv" ? CSV_TEXT : LINES],
        ["stderr", stderr, LINES],
      ] as const)
        expect(escapeUnsafe(text, keep), `${name} of ${JSON.stringify(label)}: ${text}`).toBe(text);
    }

    // Visible, so staff can see something odd was stored.
    expect(outputs.list).toContain("Eve\\u009b2J\\u009d0;pwned");
    expect(outputs.list).toContain("\\u202eexe.txt\\u202c");
    expect(outputs.outbox).toContain("last error: HTTP 500 \\u009b2J\\u202e");
    expect(outputs["export --format csv"]).toContain("Eve\\u009b2J");
    // The export keeps its CSV form: quoted multi-line message, CRLF records, formula rule.
    expect(outputs["export --format csv"]).toMatch(/"Hi\\u009b0m\r\nline two\\u2028/);
    expect(outputs["export --format csv"]).toContain(",\\u001b+44 7700 900123\\u200f,");
    // show stays valid JSON, and reads back as exactly what is stored.
    const shown = JSON.parse(outputs["show --email MALLORY\u2066\u0085@EXAMPLE.COM"] ?? "") as {
      registrations: Array<{ name: string; message: string }>;
    };
    expect(shown.registrations[0]).toMatchObject({ name, message });
  });
});
