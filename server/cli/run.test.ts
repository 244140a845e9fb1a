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
let place: TestPlace;
let clock: Date;

beforeEach(async () => {
  place = await sqliteBackend.fresh({
    SPREADSHEET_URL: "http://127.0.0.1:9/sheet",
    SPREADSHEET_SECRET: "s".repeat(32),
  });
  clock = new Date("2026-06-15T12:00:00.000Z");
});
afterEach(() => place.drop());

const open = () => openServices(place.env, logger, { now: () => clock });

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

/**
 * What a manager does in the console between the two runs of `announce` (decision 136):
 * approves the draft the CLI submitted, through the same operation.
 */
async function approveInConsole(stdout: string) {
  const id = /\/console\/announcements\/draft\?id=([\w-]+)\n/.exec(stdout)?.[1] ?? "";
  expect(stdout).toMatch(/^Submitted for approval; nothing was queued\./);
  const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
  const manager = { id: `m-${id}`, email: `m-${id}@clinic.example`, role: "manager" as const };
  db.prepare("insert into staff (id, email, role, created_at) values (?, ?, ?, ?)").run(
    manager.id,
    manager.email,
    manager.role,
    clock.toISOString(),
  );
  db.close();
  const services = await open();
  try {
    const { version } = (await services.announcements.view(manager, id)) ?? {};
    expect(await services.announcements.step(manager, id, "approve", { version })).toEqual({
      ok: true,
    });
  } finally {
    await services.close();
  }
}

async function seed(
  people: Array<{ name: string; email: string; at: string; message?: string; updates?: boolean }>,
) {
  const storage = await open();
  const ids: string[] = [];
  for (const [i, p] of people.entries()) {
    clock = new Date(p.at);
    const { registration } = await storage.registrations.register({
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
  await storage.close();
  clock = new Date("2026-06-15T12:00:00.000Z");
  return ids;
}

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

    expect((await cli("erase", "--email", "dee@example.com")).stdout).toBe(
      "Erased 1 registration and 2 outbox records (spreadsheet deliveries and emails) for that address.\n",
    );
    // Nothing of Dee is left but the record of the erasure; nothing went to the sheet.
    expect(JSON.parse((await cli("show", "--email", "dee@example.com")).stdout)).toEqual({
      registrations: [],
      erasures: [
        {
          erasedAt: "2026-06-15T12:00:00.000Z",
          registrations: 1,
          sentToSpreadsheet: false,
          spreadsheetIds: [],
        },
      ],
    });
    expect((await cli("show", "--email", "nobody@example.com")).stdout).toBe(
      "Nothing is stored for that address.\n",
    );
    expect((await cli("count")).stdout).toBe("1\n");
    expect((await cli("outbox")).stdout).toBe(
      "spreadsheet  waiting 1  done 0  failed 0  oldest waiting since 2026-06-02T09:00:00.000Z\n" +
        "email  waiting 1  done 0  failed 0  oldest waiting since 2026-06-02T09:00:00.000Z\n" +
        `  Not sent: SMTP_URL is not set, so each email is written to ${path.join(place.env.DATA_DIR, "mail")}.\n`,
    );
  });

  it("after erasing a forwarded registration, tells staff which spreadsheet row to delete", async () => {
    const [id] = await seed([
      { name: "Fay", email: "fay@example.com", at: "2026-06-01T09:00:00.000Z" },
    ]);
    const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    db.prepare("update outbox set status = 'delivered', attempts = 1").run();
    db.close();

    expect((await cli("erase", "--email", "FAY@example.com")).stdout).toBe(
      "Erased 1 registration and 2 outbox records (spreadsheet deliveries and emails) for that address.\n" +
        `A copy had been sent to the spreadsheet: delete the 1 row with this id there too:\n  ${id}\n`,
    );
    const shown = JSON.parse((await cli("show", "--email", "fay@example.com")).stdout) as unknown;
    expect(shown).toEqual({
      registrations: [],
      erasures: [
        {
          erasedAt: "2026-06-15T12:00:00.000Z",
          registrations: 1,
          sentToSpreadsheet: true,
          spreadsheetIds: [id],
        },
      ],
    });
    expect((await cli("outbox")).stdout).toBe(
      "spreadsheet  waiting 0  done 0  failed 0\n" +
        "email  waiting 0  done 0  failed 0\n" +
        `  Not sent: SMTP_URL is not set, so each email is written to ${path.join(place.env.DATA_DIR, "mail")}.\n` +
        `erased  2026-06-15T12:00:00.000Z  delete from the spreadsheet the 1 row with id ${id}\n`,
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
    const report = await cli("outbox");
    expect(report.stdout).toContain(
      "spreadsheet  waiting 1  done 0  failed 0  oldest waiting since 2026-06-01T00:00:00.000Z\n",
    );
    const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    db.prepare(
      "update outbox set status = 'dead', attempts = 12, last_error = '550 mailbox unavailable' where kind = 'mail'",
    ).run();
    db.close();
    const failed = await cli("outbox");
    expect(failed.stdout).toContain("email  waiting 0  done 0  failed 1\n");
    expect(failed.stdout).toMatch(
      /failed {2}email confirmation {2}[0-9a-f-]{36} {2}attempts 12 {2}since 2026-06-01T00:00:00.000Z {2}last error: 550 mailbox unavailable\n/,
    );
    expect(failed.stdout).toContain("Run `outbox --retry` to send the failed ones again.");
    expect((await cli("outbox", "--retry")).stdout).toMatch(
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
    const storage = await open();
    const key = (
      new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"))
        .prepare("select hmac_key from link_key")
        .get() as { hmac_key: string }
    ).hmac_key;
    clock = new Date("2026-06-07T00:00:00.000Z");
    for (const id of [ada, bo, cy, ed1, ed2])
      await storage.registrations.confirm(confirmToken(key, id, new Date("2026-06-06T10:00:00Z")));
    await storage.registrations.unsubscribe(unsubscribeToken(key, cy));
    await storage.close();
    clock = new Date("2026-06-15T12:00:00.000Z");
    // Only Ada: Bo did not ask, Cy unsubscribed, Di never confirmed, Ed's newest did not ask.

    const text = path.join(place.env.DATA_DIR, "news.txt");
    await writeFile(text, "Our prices are now on the site.\n");
    const args = ["announce", "--subject", "News", "--text-file", text];
    expect((await cli(...args, "--audience", "updates", "--dry-run")).stdout).toBe(
      "1 confirmed, subscribed address that asked for news would receive it. Nothing was queued.\n",
    );
    expect((await cli(...args, "--dry-run")).stdout).toBe(
      "3 confirmed, subscribed addresses would receive it. Nothing was queued.\n",
    );
    await approveInConsole((await cli(...args, "--audience", "updates")).stdout);
    expect((await cli(...args, "--audience", "updates")).stdout).toMatch(
      /^Queued announcement [0-9a-f]{32} for 1 address,/,
    );
    const queuedFor = () => {
      const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
      const rows = db
        .prepare("select registration_id from outbox where topic = 'announcement'")
        .all() as Array<{ registration_id: string }>;
      db.close();
      return rows.map((r) => r.registration_id).sort();
    };
    expect(queuedFor()).toEqual([ada]);
    expect((await cli(...args, "--audience", "updates")).stdout).toMatch(/^Nothing new to send/);
    // The same text to everyone later: once per address, so Ada does not get it again.
    await approveInConsole((await cli(...args)).stdout);
    expect((await cli(...args)).stdout).toMatch(
      /^Queued announcement [0-9a-f]{32} for 2 addresses/,
    );
    expect(queuedFor()).toEqual([ada, bo, ed2].sort());
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
    const storage = await open();
    const key = (
      new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"))
        .prepare("select hmac_key from link_key")
        .get() as { hmac_key: string }
    ).hmac_key;
    const confirm = (id: string) =>
      storage.registrations.confirm(confirmToken(key, id, new Date("2026-06-10T00:00:00Z")));
    clock = new Date("2026-06-12T00:00:00.000Z");
    for (const id of [ada, adaAgain, bo, cy]) await confirm(id);
    await storage.registrations.unsubscribe(unsubscribeToken(key, cy));
    await storage.close();
    clock = new Date("2026-06-15T12:00:00.000Z");
    // Ada (one address, twice) and Bo qualify; Cy unsubscribed; Di never confirmed.

    const text = path.join(place.env.DATA_DIR, "launch.txt");
    await writeFile(text, "We are open.\n\nBook a consultation from today.\n");
    const args = ["announce", "--subject", "We are open", "--text-file", text];
    expect((await cli(...args, "--dry-run")).stdout).toBe(
      "2 confirmed, subscribed addresses would receive it. Nothing was queued.\n",
    );
    // Nothing goes before a manager approves it in the console, however often it is run.
    const submitted = await cli(...args);
    expect(submitted.code).toBe(0);
    expect((await cli(...args)).stdout).toMatch(
      /^Not sent: this announcement is waiting for a manager's approval in the staff console \(submitted\)/,
    );
    await approveInConsole(submitted.stdout);
    const first = await cli(...args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Queued announcement [0-9a-f]{32} for 2 addresses, 60 a minute, from 2026-06-15T12:00:00.000Z to 2026-06-15T12:00:01.000Z\./,
    );
    const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    const queued = db
      .prepare(
        "select registration_id, next_attempt_at from outbox where topic = 'announcement' order by next_attempt_at",
      )
      .all() as Array<{ registration_id: string; next_attempt_at: string }>;
    db.close();
    expect(queued.map((q) => q.registration_id).sort()).toEqual([adaAgain, bo].sort());

    const again = await cli(...args);
    expect(again.stdout).toMatch(/^Nothing new to send: 2 addresses already had announcement/);
    expect((await cli(...args, "--dry-run")).stdout).toBe(
      "0 confirmed, subscribed addresses would receive it (2 addresses already had it queued). Nothing was queued.\n",
    );
    expect((await cli("outbox")).stdout).toMatch(
      /announcement {2}[0-9a-f]{32} {2}"We are open" {2}queued 2026-06-15T12:00:00.000Z: sent 0, waiting 2, failed 0; 0 a minute now, done about 2026-06-15T12:00:01.000Z \(in 1 s\)\n/,
    );
    // Half a minute later one went and the mail server told the other to wait (451): the rate
    // is over those 30 s, and the slow-down is said in words.
    const sending = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    sending
      .prepare(
        "update outbox set status = 'delivered', attempts = 1, delivered_at = '2026-06-15T11:59:30.000Z' where registration_id = ?",
      )
      .run(bo);
    sending
      .prepare(
        "update outbox set attempts = 1, last_error = 'SMTP 451 4.7.0', next_attempt_at = '2026-06-15T12:00:45.000Z' where registration_id = ?",
      )
      .run(adaAgain);
    sending.close();
    const report = (await cli("outbox")).stdout;
    expect(report).toContain(
      "  The mail server asked us to slow down: 1 email waits to be tried again.",
    );
    expect(report).toMatch(
      /"We are open" {2}queued \S+: sent 1, waiting 1, failed 0; 2 a minute now, done about 2026-06-15T12:00:30.000Z \(in 30 s\); the mail server asked us to slow down\n/,
    );
    // Another text is another announcement, approved on its own.
    await writeFile(text, "Opening hours have changed.\n");
    await approveInConsole((await cli(...args)).stdout);
    expect((await cli(...args)).stdout).toMatch(
      /^Queued announcement [0-9a-f]{32} for 2 addresses/,
    );

    for (const bad of [
      ["announce", "--subject", "x"],
      ["announce", "--text-file", text],
    ]) {
      expect((await cli(...bad)).code).toBe(2);
    }
    expect(
      await cli("announce", "--subject", "x", "--text-file", "/nonexistent/f.txt"),
    ).toMatchObject({
      code: 1,
      stderr: "Could not read /nonexistent/f.txt: ENOENT\n",
    });
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
    const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    const drafts = () =>
      db.prepare("select state, warning_acknowledged_at from announcement_drafts").all();
    expect(drafts()).toEqual([]);
    expect((await cli(...args, "--acknowledge-warning")).stdout).toMatch(/^Submitted for approval/);
    expect(drafts()).toEqual([
      { state: "submitted", warning_acknowledged_at: expect.any(String) as unknown },
    ]);
    db.close();
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
    const invited = await cli(
      "staff",
      "invite",
      "--email",
      "boss@clinic.example",
      "--role",
      "manager",
    );
    expect(invited.code).toBe(0);
    const link = invited.stdout.trim().split("\n").at(-1) ?? "";
    const services = await open();
    try {
      const person = await services.staff.enrol(new URL(link).searchParams.get("token") ?? "", {
        id: "boss-key",
        publicKey: new Uint8Array([1, 2, 3]),
        counter: 0,
        transports: [],
      });
      expect(person).toMatchObject({ role: "manager" });
    } finally {
      await services.close();
    }
    const again = await cli(
      "staff",
      "invite",
      "--email",
      "Boss@clinic.example",
      "--role",
      "viewer",
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("boss@clinic.example is already on the staff list");
    expect(again.stdout).toBe("");

    const reset = await cli("staff", "reset", "--email", "boss@clinic.example");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      /^Reset boss@clinic\.example: signed out everywhere, passkeys deleted\.\nInvitation for boss@clinic\.example as manager, valid once until \S+\. The enrolment link:\n\S+\/console\/enrol\?token=[\w-]{43}\n$/,
    );
    const after = await open();
    try {
      expect(await after.staff.passkey("boss-key")).toBeNull();
      expect(await after.staff.invitations()).toEqual([
        expect.objectContaining({ email: "boss@clinic.example", reset: true, invitedBy: null }),
      ]);
    } finally {
      await after.close();
    }
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
    const storage = await open();
    await storage.registrations.register({
      name,
      email,
      phone,
      message,
      clientTimestamp: "2026-06-01T09:00:00.000Z\u009b",
      idempotencyKey: "hostile-1",
      consent: { version: "2026-11-23", wantsUpdates: false },
    });
    await storage.close();
    const db = new DatabaseSync(path.join(place.env.DATA_DIR, "registrations.sqlite"));
    db.prepare("update outbox set status = 'dead', attempts = 16, last_error = ?").run(
      "HTTP 500 \u009b2J\u202e",
    );
    db.close();

    const runs: Array<{ args: string[]; keep: RegExp }> = [
      { args: ["help"], keep: LINES },
      { args: ["count"], keep: LINES },
      { args: ["list"], keep: LINES },
      { args: ["export", "--format", "csv"], keep: CSV_TEXT },
      { args: ["show", "--email", email], keep: LINES },
      { args: ["show", "--email", "MALLORY\u2066\u0085@EXAMPLE.COM"], keep: LINES },
      { args: ["outbox"], keep: LINES },
      { args: [`frobnicate\u009b2J`], keep: LINES },
      { args: ["outbox", "--retry"], keep: LINES },
      { args: ["erase", "--email", email], keep: LINES },
      { args: ["show", "--email", email], keep: LINES },
      { args: ["purge"], keep: LINES },
    ];
    const outputs: Record<string, string> = {};
    for (const { args, keep } of runs) {
      const { stdout, stderr } = await cli(...args);
      const label = args.join(" ");
      outputs[label] = stdout;
      expect(escapeUnsafe(stdout, keep), `stdout of ${JSON.stringify(label)}: ${stdout}`).toBe(
        stdout,
      );
      expect(escapeUnsafe(stderr, LINES), `stderr of ${JSON.stringify(label)}: ${stderr}`).toBe(
        stderr,
      );
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
