/**
 * Announcements with four eyes (issue 31 point 6, docs/decisions/136), in Chromium, against
 * a server of its own that sends through the fake SMTP server: compose, preview (the
 * rendered email and the number of recipients), a test send that reaches only its sender,
 * the author refused as approver while another manager exists, the send reaching each
 * eligible person once and no one erased, unsubscribed or unconfirmed; the medicine and
 * price warning blocking submission until acknowledged; a lone manager's second step.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

import { type Browser, type Page, expect, test } from "@playwright/test";

import { freePort, type ServerProcess, startServer } from "../../scripts/lib/server-process.ts";
import {
  type SeededStaff,
  consoleCookie,
  seedStaff,
  signInAs,
  withDatabase,
} from "../support/console.ts";
import { type MailCatcher, startMailCatcher } from "../support/mail-catcher.ts";
import { newRegistration, postRegistration } from "../support/registrations.ts";
import { tabTo } from "../support/site.ts";

const root = path.resolve(import.meta.dirname, "..", "..");

test.describe.configure({ mode: "serial" });

let mail: MailCatcher;
let server: ServerProcess;
let consoleURL: string;
const person = {
  confirmed: [newRegistration("announce-a"), newRegistration("announce-b")],
  unsubscribed: newRegistration("announce-unsubscribed"),
  erased: newRegistration("announce-erased"),
  unconfirmed: newRegistration("announce-unconfirmed"),
};
const registrants = () => [
  ...person.confirmed,
  person.unsubscribed,
  person.erased,
  person.unconfirmed,
];

const db = <T>(run: Parameters<typeof withDatabase<T>>[0]) => withDatabase(run, server.dataDir);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mail = await startMailCatcher();
  const consolePort = await freePort();
  consoleURL = `http://localhost:${consolePort}`;
  server = await startServer({
    env: {
      SMTP_URL: mail.url,
      MAIL_FROM: "Clinic <hello@clinic.test>",
      SITE_URL: "http://localhost:3999",
      CONSOLE_PORT: String(consolePort),
      CONSOLE_URL: consoleURL,
      MAIL_PER_MINUTE: "6000",
    },
    keepOutput: false,
  });
  for (const r of registrants()) {
    expect((await postRegistration(server.url, r)).status).toBe(200);
    await mail.waitFor(r.email);
  }
  const now = new Date().toISOString();
  db((d) => {
    const confirm = d.prepare("UPDATE registrations SET confirmed_at = ? WHERE email = ?");
    for (const r of [...person.confirmed, person.unsubscribed, person.erased]) {
      confirm.run(now, r.email);
    }
    d.prepare("UPDATE registrations SET unsubscribed_at = ? WHERE email = ?").run(
      now,
      person.unsubscribed.email,
    );
  });
  // Erased with the operator's own command, as a subject's request would be.
  const erased = spawnSync(
    "npm",
    ["run", "--silent", "registrations", "--", "erase", "--email", person.erased.email],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: "silent" },
    },
  );
  expect(erased.status, erased.stderr).toBe(0);
});

test.afterAll(async () => {
  await server?.stop();
  await mail?.close();
});

/** Managers of earlier tests step aside, so each test sets the number it needs. */
function onlyManagers(...staff: SeededStaff[]) {
  db((d) =>
    d
      .prepare(
        `UPDATE staff SET removed_at = ? WHERE role = 'manager' AND removed_at IS NULL
           AND id NOT IN (${staff.map(() => "?").join(", ")})`,
      )
      .run(new Date().toISOString(), ...staff.map((s) => s.id)),
  );
}

const manager = (label: string) => seedStaff("manager", label, server.dataDir);

async function pageFor(browser: Browser, staff: SeededStaff): Promise<Page> {
  const context = await browser.newContext();
  await signInAs(context, staff);
  return context.newPage();
}

/** Writes an announcement on the compose page; returns the draft page's address. */
async function compose(page: Page, subject: string, body: string): Promise<string> {
  await page.goto(`${consoleURL}/console/announcements`);
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Text").fill(body);
  await page.getByLabel("Everyone who confirmed their address").check();
  await page.getByRole("button", { name: "Save and preview" }).click();
  await expect(page).toHaveURL(/\/console\/announcements\/draft\?id=/);
  return page.url();
}

const draftState = (url: string) =>
  db(
    (d) =>
      (
        d
          .prepare("SELECT state FROM announcement_drafts WHERE id = ?")
          .get(new URL(url).searchParams.get("id")) as { state: string }
      ).state,
  );

/** A post as a script would send it, with the staff member's session. */
const post = (url: string, staff: SeededStaff, body: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      cookie: `${consoleCookie.name}=${staff.token}`,
      origin: consoleURL,
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
    redirect: "manual",
  });

const received = (subject: string) => (address: string) =>
  mail.to(address).filter((m) => m.parsed.subject === subject).length;

test("with one manager, approving their own announcement is an explicit second step", async ({
  browser,
}) => {
  const only = manager("only");
  onlyManagers(only);
  const page = await pageFor(browser, only);
  const url = await compose(page, `Alone ${Date.now()}`, "We open on 3 March.");
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByRole("status")).toHaveText("Submitted for approval.");
  await expect(
    page.getByText(
      "You are the only manager: approving your own announcement is a second, separate step.",
    ),
  ).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("Approved. It can now be sent.");
  expect(draftState(url)).toBe("approved");
  await page.getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("status")).toHaveText("Withdrawn. It will not be sent.");
  expect(draftState(url)).toBe("withdrawn");
  await page.context().close();
});

test("the warning for a prescription-only medicine or a price blocks submission until acknowledged", async ({
  browser,
}) => {
  const author = manager("warned");
  const page = await pageFor(browser, author);
  const url = await compose(page, `Nebido news ${Date.now()}`, "Treatment from £45 a month.");
  const warning = page.getByRole("region", { name: /may advertise a prescription-only/ });
  await expect(warning).toContainText("Medicines named: nebido. Prices: £45.");
  await expect(warning).toContainText("regulation 284 of the Human Medicines Regulations 2012");
  // The server refuses it without the box ticked, whatever the browser does.
  const refused = await post(url, author, "intent=submit");
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain("Tick the box to confirm you have read the warning");
  expect(draftState(url)).toBe("draft");
  // The browser stops it too: the box is required.
  await page.getByRole("button", { name: "Submit for approval" }).click();
  expect(draftState(url)).toBe("draft");
  await page.getByLabel("I have read this warning and the wording has been checked").check();
  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByRole("status")).toHaveText("Submitted for approval.");
  await expect(warning).toContainText(`Acknowledged by ${author.email}.`);
  expect(draftState(url)).toBe("submitted");
  await page.context().close();
});

test("compose, preview, test send, the second manager approves, send: each eligible person once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = manager("author");
  const second = manager("second");
  onlyManagers(author, second);
  const page = await pageFor(browser, author);
  const subject = `We are open ${Date.now()}`;
  const url = await compose(page, subject, "Our doors open today.\n\nBook from the website.");

  // The preview: the email as the worker builds it, in a frame that runs no script.
  const frame = page.frameLocator('iframe[title="The email as most people will see it"]');
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText(subject);
  await expect(frame.getByText("Our doors open today.")).toBeVisible();
  await expect(frame.getByText("Hello there,")).toBeVisible();
  // Its style attributes pass the console's CSP, which the frame inherits, by their hashes.
  await expect(frame.locator("body")).toHaveCSS("font-family", /Georgia/);
  expect(await page.locator("iframe").getAttribute("sandbox")).toBe("");
  await expect(page.locator("pre")).toContainText(
    "Our doors open today.\n\nBook from the website.",
  );
  // Two confirmed, subscribed people; not the unsubscribed, the erased or the unconfirmed.
  await expect(page.getByText("2 people would receive it now")).toBeVisible();

  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByRole("status")).toContainText("A test was sent to your own address");
  const [testMail] = await mail.waitFor(author.email);
  expect(testMail?.parsed.subject).toBe(`Test: ${subject}`);
  expect(testMail?.parsed.text).toContain("Our doors open today.");
  expect(draftState(url)).toBe("draft");

  await page.getByRole("button", { name: "Submit for approval" }).click();
  await expect(page.getByRole("status")).toHaveText("Submitted for approval.");
  // The author sees no Approve button, and the server refuses the post.
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByText("You wrote it, so another manager must approve it.")).toBeVisible();
  const own = await post(url, author, "intent=approve");
  expect(own.status).toBe(400);
  expect(await own.text()).toContain("Another manager must approve an announcement you wrote.");
  expect(draftState(url)).toBe("submitted");
  // Nor can anyone send before approval.
  expect((await post(url, second, "intent=send")).status).toBe(400);

  const reviewer = await pageFor(browser, second);
  await reviewer.goto(url);
  await reviewer.getByRole("button", { name: "Approve" }).click();
  await expect(reviewer.getByRole("status")).toHaveText("Approved. It can now be sent.");
  await expect(reviewer.locator("dl").first()).toContainText(`Approved by${second.email} at`);
  await reviewer.getByRole("button", { name: "Send now" }).click();
  await expect(reviewer.getByRole("status")).toHaveText("Sending has started.");
  await expect(reviewer.getByRole("heading", { name: "Progress" })).toBeVisible();

  const count = received(subject);
  for (const r of person.confirmed) {
    await expect.poll(() => count(r.email), { timeout: 30_000 }).toBe(1);
  }
  // Sending again sends nobody twice.
  await post(url, second, "intent=send");
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (const r of person.confirmed) expect(count(r.email)).toBe(1);
  for (const r of [person.unsubscribed, person.erased, person.unconfirmed]) {
    expect(count(r.email), r.email).toBe(0);
  }
  // The test went to the author alone, and no registrant got a test.
  for (const r of registrants()) {
    expect(mail.to(r.email).filter((m) => m.parsed.subject?.startsWith("Test: "))).toEqual([]);
  }

  await reviewer.reload();
  await expect(reviewer.getByText("Sent", { exact: true }).first()).toBeVisible();
  await expect(reviewer.locator("dl").last()).toContainText("Sent2Waiting to be sent0Failed0");

  // Every step audited, under who took it, and no registrant's address anywhere in it.
  const audit = db(
    (d) =>
      d
        .prepare(
          "SELECT s.email AS who, a.action, a.detail, a.registration_id FROM audit_trail a JOIN staff s ON s.id = a.staff_id WHERE a.action LIKE 'announcement-%' AND a.detail LIKE ?",
        )
        .all(`%${new URL(url).searchParams.get("id")}%`) as {
        who: string;
        action: string;
        detail: string;
      }[],
  );
  expect(audit.map((a) => `${a.who === author.email ? "author" : "second"} ${a.action}`)).toEqual(
    expect.arrayContaining([
      "author announcement-composed",
      "author announcement-test-sent",
      "author announcement-submitted",
      "second announcement-approved",
      "second announcement-sent",
    ]),
  );
  for (const a of audit) {
    for (const r of registrants()) expect(a.detail).not.toContain(r.email);
    expect(a.detail).not.toContain("@");
  }
  await page.context().close();
  await reviewer.context().close();
});

test("a keyboard writes, acknowledges and submits an announcement, with focus always visible", async ({
  browser,
}) => {
  const page = await pageFor(browser, manager("keyboard"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${consoleURL}/console/announcements`);
  await tabTo(page, page.getByLabel("Subject"), { max: 60 });
  await page.keyboard.type(`Keyboard ${Date.now()}`);
  await tabTo(page, page.getByLabel("Text"), { max: 2 });
  await page.keyboard.type("Prices from £30.");
  await tabTo(page, page.getByRole("button", { name: "Save and preview" }), { max: 3 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/console\/announcements\/draft\?id=/);
  await tabTo(page, page.getByLabel(/I have read this warning/), { max: 20 });
  await page.keyboard.press("Space");
  await tabTo(page, page.getByRole("button", { name: "Submit for approval" }), { max: 2 });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText("Submitted for approval.");
  await page.context().close();
});
