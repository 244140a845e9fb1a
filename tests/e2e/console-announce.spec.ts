/**
 * Announcements with four eyes (issue 31 point 6, docs/decisions/136), in Chromium, against
 * a server of its own that sends through the fake SMTP server: compose, preview (the
 * rendered email and the number of recipients), a test send that reaches only its sender,
 * the author refused as approver while another manager exists, the send reaching each
 * eligible person once and no one erased, unsubscribed or unconfirmed; the medicine and
 * price warning blocking submission until acknowledged; a lone manager's second step,
 * named as such; an approval bound to the words the approver read (decision 176).
 */
import { randomUUID } from "node:crypto";

import { type Page, expect, test } from "@playwright/test";

import { type MailCatcher, startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import {
  newRegistration,
  postRegistration,
  registrationsCli,
} from "../../scripts/lib/registrations.ts";
import { type OwnConsole, startOwnConsole } from "../support/own-console.ts";
import { tabTo } from "../support/site.ts";

test.describe.configure({ mode: "serial" });

let mail: MailCatcher;
let own: OwnConsole;
const person = {
  confirmed: [newRegistration("announce-a"), newRegistration("announce-b")],
  unsubscribed: newRegistration("announce-unsubscribed"),
  erased: newRegistration("announce-erased"),
  unconfirmed: newRegistration("announce-unconfirmed"),
};
/** Unsubscribed, erased, unconfirmed: an announcement reaches none of them. */
const ineligible = [person.unsubscribed, person.erased, person.unconfirmed];
const registrants = [...person.confirmed, ...ineligible];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mail = await startMailCatcher();
  own = await startOwnConsole({
    SMTP_URL: mail.url,
    MAIL_FROM: "Clinic <hello@clinic.test>",
    SITE_URL: "http://localhost:3999",
    MAIL_PER_MINUTE: "6000",
  });
  for (const r of registrants) {
    expect((await postRegistration(own.server.url, r)).status).toBe(200);
    await mail.waitFor(r.email);
  }
  const now = new Date().toISOString();
  own.db((d) => {
    const set = (column: string, r: { email: string }) =>
      d.prepare(`UPDATE registrations SET ${column} = ? WHERE email = ?`).run(now, r.email);
    for (const r of [...person.confirmed, person.unsubscribed, person.erased])
      set("confirmed_at", r);
    set("unsubscribed_at", person.unsubscribed);
  });
  // Erased with the operator's own command, as a subject's request would be.
  const erase = ["erase", "--email", person.erased.email];
  await registrationsCli({ DATA_DIR: own.server.dataDir }, erase);
});

test.afterAll(async () => {
  await own?.server.stop();
  await mail?.close();
});

const manager = (label: string) => own.seed("manager", label);

/** Writes an announcement on the compose page; returns the draft page's address. */
async function compose(page: Page, subject: string, body: string): Promise<string> {
  await page.goto(`${own.url}/console/announcements`);
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Text").fill(body);
  await page.getByLabel("Everyone who confirmed their address").check();
  await page.getByRole("button", { name: "Save and preview" }).click();
  await expect(page).toHaveURL(/\/console\/announcements\/draft\?id=/);
  return page.url();
}

const draftId = (url: string) => new URL(url).searchParams.get("id");

const draftState = (url: string) =>
  own.db((d) => d.prepare("SELECT state FROM announcement_drafts WHERE id = ?").get(draftId(url)))
    ?.state;

/** The rows `sql` selects for the draft at `url`, its one parameter a LIKE for the draft's id. */
const aboutDraft = <T>(url: string, sql: string) =>
  own.db((d) => d.prepare(sql).all(`%${draftId(url)}%`) as T[]);

/** Presses a step's button and waits for the status it announces. */
async function step(page: Page, button: string, status: string) {
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("status")).toHaveText(status);
}

/** The version of the words a page shows, as its step forms post it. */
const versionOn = (page: Page) => page.locator('input[name="version"]').first().inputValue();

const received = (subject: string) => (address: string) =>
  mail.to(address).filter((m) => m.parsed.subject === subject).length;

test("with one manager, approving their own announcement is an explicit second step", async ({
  browser,
}) => {
  const only = manager("only");
  own.onlyManagers(only);
  const page = await own.pageFor(browser, only);
  const subject = `Alone ${Date.now()}`;
  const url = await compose(page, subject, "We open on 3 March.");
  await step(page, "Submit for approval", "Submitted for approval.");
  await expect(
    page.getByText(
      "No other manager can approve it, so you may approve your own announcement: a second, separate step, shown as approved by its author alone.",
    ),
  ).toBeVisible();
  await step(page, "Approve", "Approved. It can now be sent.");
  expect(draftState(url)).toBe("approved");
  // Said plainly on the page, in the list and in the audit trail.
  await expect(page.locator("dl").first()).toContainText("Approved by its author alone");
  await page.goto(`${own.url}/console/announcements`);
  await expect(page.getByRole("listitem").filter({ hasText: subject })).toContainText(
    "Approved by its author alone",
  );
  await page.goto(`${own.url}/console/audit`);
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: "Approved an announcement (approved by its author alone)" }),
  ).toContainText(`draft: ${draftId(url)}, alone: true`);
  await page.goto(url);
  await step(page, "Withdraw", "Withdrawn. It will not be sent.");
  expect(draftState(url)).toBe("withdrawn");
  await page.context().close();
});

test("compose, preview, test send, the second manager approves, send: each eligible person once", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = manager("author");
  const second = manager("second");
  own.onlyManagers(author, second);
  const page = await own.pageFor(browser, author);
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

  const version = await versionOn(page);
  await step(page, "Submit for approval", "Submitted for approval.");
  // The author sees no Approve button, and the server refuses the post, words unchanged.
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByText("You wrote it, so another manager must approve it.")).toBeVisible();
  const byAuthor = await own.post(url, author, `intent=approve&version=${version}`);
  expect(byAuthor.status).toBe(400);
  expect(await byAuthor.text()).toContain(
    "Another manager must approve an announcement you wrote.",
  );
  expect(draftState(url)).toBe("submitted");
  // Nor can anyone send before approval.
  expect((await own.post(url, second, `intent=send&version=${version}`)).status).toBe(400);

  const reviewer = await own.pageFor(browser, second);
  await reviewer.goto(url);
  await step(reviewer, "Approve", "Approved. It can now be sent.");
  await expect(reviewer.locator("dl").first()).toContainText(`Approved by${second.email} at`);
  await step(reviewer, "Send now", "Sending has started.");
  await expect(reviewer.getByRole("heading", { name: "Progress" })).toBeVisible();

  const count = received(subject);
  for (const r of person.confirmed)
    await expect.poll(() => count(r.email), { timeout: 30_000 }).toBe(1);
  // Sending again sends nobody twice.
  await own.post(url, second, `intent=send&version=${version}`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (const r of person.confirmed) expect(count(r.email)).toBe(1);
  for (const r of ineligible) expect(count(r.email), r.email).toBe(0);
  // The test went to the author alone, and no registrant got a test.
  for (const r of registrants)
    expect(mail.to(r.email).filter((m) => m.parsed.subject?.startsWith("Test: "))).toEqual([]);

  await reviewer.reload();
  await expect(reviewer.getByText("Sent", { exact: true }).first()).toBeVisible();
  await expect(reviewer.locator("dl").last()).toContainText("Sent2Waiting to be sent0Failed0");

  // Every step audited, under who took it, and no registrant's address anywhere in it.
  const audit = aboutDraft<{ who: string; action: string; detail: string }>(
    url,
    "SELECT s.email AS who, a.action, a.detail, a.registration_id FROM audit_trail a JOIN staff s ON s.id = a.staff_id WHERE a.action LIKE 'announcement-%' AND a.detail LIKE ?",
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
    for (const r of registrants) expect(a.detail).not.toContain(r.email);
    expect(a.detail).not.toContain("@");
  }
  await page.context().close();
  await reviewer.context().close();
});

test("an approval holds only for the words the approver read, and acknowledges their warning", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const author = manager("rewriter");
  const approver = manager("approver");
  own.onlyManagers(author, approver);
  const page = await own.pageFor(browser, author);
  const url = await compose(page, `Opening ${Date.now()}`, "We open on 3 March.");
  await step(page, "Submit for approval", "Submitted for approval.");

  const reviewer = await own.pageFor(browser, approver);
  await reviewer.goto(url);
  await expect(reviewer.locator("pre")).toContainText("We open on 3 March.");
  const warning = reviewer.getByRole("region", { name: /may advertise a prescription-only/ });
  await expect(warning).toHaveCount(0);

  // Meanwhile, in another browser, the author takes it back, changes the words, resubmits.
  await page.getByRole("button", { name: "Back to draft" }).click();
  await page.getByLabel("Text").fill("Nebido now £45 a month.");
  await step(page, "Save changes", "Your changes are saved.");
  // The warning blocks submitting them until acknowledged: the server refuses the post...
  const blocked = await own.post(url, author, `intent=submit&version=${await versionOn(page)}`);
  expect(blocked.status).toBe(400);
  expect(await blocked.text()).toContain("Tick the box to confirm you have read the warning");
  // ...and the browser stops it too: the box is required.
  await page.getByRole("button", { name: "Submit for approval" }).click();
  expect(draftState(url)).toBe("draft");
  await page.getByLabel("I have read this warning and the wording has been checked").check();
  await step(page, "Submit for approval", "Submitted for approval.");

  // The approver's click in the page opened before approves nothing.
  const [refused] = await Promise.all([
    reviewer.waitForResponse((r) => r.request().method() === "POST"),
    reviewer.getByRole("button", { name: "Approve" }).click(),
  ]);
  expect(refused.status()).toBe(400);
  await expect(reviewer.getByRole("alert")).toContainText(
    "The words changed since you opened this page.",
  );
  expect(draftState(url)).toBe("submitted");
  // The page now shows the words as they are, and their warning.
  await expect(reviewer.locator("pre")).toContainText("Nebido now £45 a month.");
  await expect(warning).toContainText("Medicines named: nebido. Prices: £45.");
  await expect(warning).toContainText("regulation 284 of the Human Medicines Regulations 2012");

  // Approving them needs the approver's own acknowledgement: the server refuses without it...
  const seen = await versionOn(reviewer);
  const unticked = await own.post(url, approver, `intent=approve&version=${seen}`);
  expect(unticked.status).toBe(400);
  expect(await unticked.text()).toContain("Tick the box to confirm you have read the warning");
  // ...and the browser stops it too.
  await reviewer.getByRole("button", { name: "Approve" }).click();
  expect(draftState(url)).toBe("submitted");
  await reviewer
    .getByLabel("I have read this warning and checked the wording before approving")
    .check();
  await step(reviewer, "Approve", "Approved. It can now be sent.");
  expect(draftState(url)).toBe("approved");
  await expect(warning).toContainText(`Acknowledged by ${author.email} when submitting it.`);
  await expect(warning).toContainText(`Acknowledged by ${approver.email} when approving it.`);
  const approvals = aboutDraft<{ staff_id: string; detail: string }>(
    url,
    "SELECT staff_id, detail FROM audit_trail WHERE action = 'announcement-approved' AND detail LIKE ?",
  );
  expect(approvals.map((a) => [a.staff_id, JSON.parse(a.detail) as unknown])).toEqual([
    [approver.id, { draft: draftId(url), warning: "acknowledged" }],
  ]);
  await page.context().close();
  await reviewer.context().close();
});

test("a keyboard writes, acknowledges and submits an announcement, with focus always visible", async ({
  browser,
}) => {
  const page = await own.pageFor(browser, manager("keyboard"));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${own.url}/console/announcements`);
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

test("a send under way shows the last minute's rate, when it should be done, and a mail server's request to slow down", async ({
  browser,
}) => {
  const staff = manager("progress");
  const draft = randomUUID();
  const announcementId = randomUUID().replaceAll("-", "");
  const at = (seconds: number) => new Date(Date.now() + seconds * 1_000).toISOString();
  const queued = at(-60);
  own.db((d) => {
    d.prepare(
      `INSERT INTO announcement_drafts (id, subject, body, audience, state, announcement_id,
         author_id, created_at, updated_at, queued_at) VALUES (?, ?, 'We open soon.', 'all', 'sending', ?, ?, ?, ?, ?)`,
    ).run(draft, `Progress ${draft.slice(0, 8)}`, announcementId, staff.id, queued, queued, queued);
    // Two sent half a minute ago; one refused with "451 try again later", one paced 10 minutes on.
    // status, attempts, next_attempt_at, last_error, delivered_at
    const rows = [
      ["delivered", 1, at(-30), null, at(-30)],
      ["delivered", 1, at(-30), null, at(-30)],
      ["pending", 1, at(1_200), "SMTP 451 4.7.0", null],
      ["pending", 0, at(600), null, null],
    ] as const;
    for (const row of rows) {
      const registration = randomUUID();
      d.prepare(
        `INSERT INTO registrations (id, name, email, phone, message, received_at, idempotency_key,
           consent_version, consent_at, wants_updates, confirmed_at)
         VALUES (?, 'Sam Progress', ?, NULL, NULL, ?, ?, '2026-11-23', ?, 0, ?)`,
      ).run(registration, `${registration}@example.com`, at(-90), randomUUID(), at(-90), at(-90));
      d.prepare(
        `INSERT INTO outbox (id, registration_id, status, attempts, next_attempt_at, last_error,
           delivered_at, created_at, kind, topic, announcement_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'mail', 'announcement', ?)`,
      ).run(randomUUID(), registration, ...row, queued, announcementId);
    }
  });
  const page = await own.pageFor(browser, staff);
  await page.goto(`${own.url}/console/announcements/draft?id=${draft}`);
  const progress = page.locator("dl").last();
  await expect(progress).toContainText("Sent2Waiting to be sent2Failed0Sent in the last minute4");
  // The paced email is the last to go: 10 minutes from now, whatever the rate.
  await expect(progress).toContainText(
    /Should be done\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (9|10) min\)/,
  );
  await expect(page.getByText("The mail server asked us to slow down.")).toBeVisible();
  await page.context().close();
});
