/**
 * Staff changes a dishonest manager cannot use (issue 37, docs/decisions/175), in Chromium
 * against a server of its own (so the number of managers is the test's): an invitation
 * never reaches an active member's account; a change that lowers the managers waits for a
 * second manager, so demoting the others cannot make the author "the only manager"; an
 * agreed demotion happens; a reset ends a person's sessions and passkeys and invites them
 * again, for every manager to see.
 */
import { createHash, randomUUID } from "node:crypto";

import { type Browser, type Page, expect, test } from "@playwright/test";

import { operatorCli } from "../../scripts/lib/registrations.ts";
import { type SeededStaff, consoleCookie, virtualAuthenticator } from "../support/console.ts";
import { type OwnConsole, startOwnConsole } from "../support/own-console.ts";

test.describe.configure({ mode: "serial" });

// No SMTP_URL: the console shows a new link once, with its warning.
let own: OwnConsole;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  own = await startOwnConsole();
});
test.afterAll(() => own?.server.stop());

/** The first row a query returns from the server's database, if any. */
const rowOf = <T>(sql: string, ...params: string[]) =>
  own.db((d) => d.prepare(sql).get(...params) as T | undefined);
const rowsOf = <T>(sql: string, ...params: string[]) =>
  own.db((d) => d.prepare(sql).all(...params) as T[]);
const run = (sql: string, ...params: string[]) => own.db((d) => d.prepare(sql).run(...params));

const count = (sql: string, ...params: string[]) => rowOf<{ n: number }>(sql, ...params)!.n;
const roleOf = (staff: SeededStaff) =>
  rowOf<{ role: string }>("SELECT role FROM staff WHERE id = ? AND removed_at IS NULL", staff.id)
    ?.role ?? "removed";
const countOf = (table: string) => (staff: SeededStaff) =>
  count(`SELECT count(*) AS n FROM ${table} WHERE staff_id = ?`, staff.id);
const passkeysOf = countOf("staff_passkeys");
const sessionsOf = countOf("staff_sessions");

/** A passkey row, as an enrolment leaves it (its key is never used here). */
function seedPasskey(staff: SeededStaff) {
  const sql = `INSERT INTO staff_passkeys (credential_id, staff_id, public_key, counter,
    transports, created_at, last_used_at) VALUES (?, ?, 'AQID', 0, '["internal"]', ?, NULL)`;
  run(sql, randomUUID(), staff.id, new Date().toISOString());
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const staffCli = (...args: string[]) =>
  operatorCli({ DATA_DIR: own.server.dataDir, CONSOLE_URL: own.url }, ["staff", ...args]);

/** An announcement its author submitted, waiting for another manager's approval. */
function submittedBy(author: SeededStaff): string {
  const id = randomUUID();
  const now = new Date().toISOString();
  const sql = `INSERT INTO announcement_drafts (id, subject, body, audience, state,
      announcement_id, author_id, created_at, updated_at, submitted_at)
    VALUES (?, ?, 'We open on 3 March.', 'all', 'submitted', ?, ?, ?, ?, ?)`;
  run(sql, id, `Opening ${id.slice(0, 8)}`, sha256(id).slice(0, 32), author.id, now, now, now);
  return id;
}

const draftState = (id: string) =>
  rowOf<{ state: string }>("SELECT state FROM announcement_drafts WHERE id = ?", id)!.state;

const auditOf = (action: string) =>
  rowsOf<{ staff: string | null; detail: string }>(
    "SELECT s.email AS staff, a.detail FROM audit_trail a LEFT JOIN staff s ON s.id = a.staff_id WHERE a.action = ? ORDER BY a.id",
    action,
  ).map((r) => ({ staff: r.staff, ...(JSON.parse(r.detail) as Record<string, unknown>) }));

/** A new browser signed in as `staff`, on the staff page. */
async function staffPageOf(browser: Browser, staff: SeededStaff) {
  const page = await own.pageFor(browser, staff);
  await page.goto(`${own.url}/console/staff`);
  return page;
}

/** Asks, from the staff page, to make `staff` a viewer. */
async function askViewer(page: Page, staff: SeededStaff) {
  await page.getByLabel(`Role of ${staff.email}`).selectOption("viewer");
  await page
    .getByRole("listitem")
    .filter({ hasText: staff.email })
    .getByRole("button", { name: "Change role" })
    .click();
}

const asked = "Asked: nothing has changed yet";

test("an invitation for an active member's address is refused, in the console, by a post and from the CLI", async ({
  browser,
}) => {
  // Two addresses, each refused three ways: 66 s in a fresh-clone run at load 12 to 18.
  test.setTimeout(150_000);
  const manager = own.seed("manager", "inviter");
  const viewer = own.seed("viewer", "colleague");
  const other = own.seed("manager", "victim");
  own.onlyManagers(manager, other);
  const page = await staffPageOf(browser, manager);
  for (const target of [viewer, other]) {
    await page.getByLabel("Email address").fill(target.email.toUpperCase());
    await page.getByLabel("Manager", { exact: true }).check();
    await page.getByRole("button", { name: "Create invitation" }).click();
    await expect(page.getByText(`${target.email} is already on the staff list`)).toBeVisible();
    await expect(page.getByText("/console/enrol?token=")).toHaveCount(0);

    const invite = new URLSearchParams({ intent: "invite", email: target.email, role: "manager" });
    const posted = await own.post("/console/staff", manager, invite.toString());
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("is already on the staff list");

    const cli = await staffCli("invite", "--email", target.email, "--role", "manager");
    expect(cli.status, cli.stdout).not.toBe(0);
    expect(cli.stderr).toContain("is already on the staff list");
    expect(cli.stdout).not.toContain("token=");
  }
  const invites = "SELECT count(*) AS n FROM staff_invites WHERE email IN (?, ?)";
  expect(count(invites, viewer.email, other.email)).toBe(0);
  expect(roleOf(viewer)).toBe("viewer");
  await page.context().close();
});

test("an invitation made for an address that is now an active member cannot enrol into that account", async ({
  page,
}) => {
  const victim = own.seed("manager", "enrolled-victim");
  seedPasskey(victim);
  // Made before the fix, or before its address joined the staff.
  const token = randomUUID();
  const now = Date.now();
  const sql = `INSERT INTO staff_invites (token_hash, email, role, created_at, expires_at,
    used_at) VALUES (?, ?, 'manager', ?, ?, NULL)`;
  const hour = new Date(now + 3_600_000).toISOString();
  run(sql, sha256(token), victim.email, new Date(now).toISOString(), hour);
  const authenticator = await virtualAuthenticator(page);
  await page.goto(`${own.url}/console/enrol?token=${token}`);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page.getByRole("status")).toContainText("someone already on the staff");
  await expect(page).toHaveURL(/\/console\/enrol\?token=/);
  expect(await page.context().cookies(own.url)).toEqual([]);
  expect(passkeysOf(victim)).toBe(1);
  expect(await authenticator.credentials()).toHaveLength(0);
  expect(roleOf(victim)).toBe("manager");
});

test("with managers A and B, A's demotion of B waits for agreement, so A cannot approve their own announcement", async ({
  browser,
}) => {
  const a = own.seed("manager", "author-a");
  const b = own.seed("manager", "other-b");
  own.onlyManagers(a, b);
  const draft = submittedBy(a);
  const page = await staffPageOf(browser, a);
  await askViewer(page, b);
  // The page answered (either way)...
  await expect(page.getByRole("status")).toBeVisible();
  // ...and B is still a manager, so A is not the only one: A's own announcement waits for B.
  expect(roleOf(b)).toBe("manager");
  const draftPage = `${own.url}/console/announcements/draft?id=${draft}`;
  const approvalRefused = async () => {
    expect((await own.post(draftPage, a, "intent=approve")).status).toBe(400);
    expect(draftState(draft)).toBe("submitted");
  };
  await approvalRefused();
  await expect(page.getByRole("status")).toContainText(asked);
  const waiting = page.getByRole("listitem").filter({ hasText: `Make ${b.email} a viewer` });
  await expect(waiting).toContainText("You asked on");
  await expect(waiting.getByRole("button", { name: /^Agree/ })).toHaveCount(0);
  await expect(waiting.getByRole("button", { name: /^Cancel/ })).toBeVisible();
  // Removing or resetting B waits in the same way.
  await page.getByRole("button", { name: `Remove ${b.email}` }).click();
  await expect(page.getByRole("status")).toContainText(asked);
  expect(roleOf(b)).toBe("manager");

  // A cannot agree to their own request, even by posting it.
  const requests = rowsOf<{ id: string }>("SELECT id FROM staff_requests ORDER BY requested_at");
  expect(requests).toHaveLength(2);
  for (const { id } of requests)
    expect((await own.post("/console/staff", a, `intent=agree&id=${id}`)).status, id).toBe(400);
  expect(roleOf(b)).toBe("manager");

  // Nor does the draft's page offer A the lone manager's approval.
  await page.goto(draftPage);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await approvalRefused();
  await page.context().close();
});

test("an agreed demotion happens, audited with both managers", async ({ browser }) => {
  const a = own.seed("manager", "asker-a");
  const b = own.seed("manager", "agreer-b");
  own.onlyManagers(a, b);
  const asker = await staffPageOf(browser, a);
  await askViewer(asker, b);
  await expect(asker.getByRole("status")).toContainText(asked);
  expect(roleOf(b)).toBe("manager");

  const agreer = await staffPageOf(browser, b);
  const waiting = agreer.getByRole("listitem").filter({ hasText: `Make ${b.email} a viewer` });
  await expect(waiting).toContainText(`${a.email} asked on`);
  await waiting.getByRole("button", { name: /^Agree/ }).click();
  await expect(agreer.getByRole("status")).toContainText(
    "You agreed, and the change has been made",
  );
  expect(roleOf(b)).toBe("viewer");
  expect(count("SELECT count(*) AS n FROM staff_requests")).toBe(0);
  expect(auditOf("staff-change-requested").at(-1)).toMatchObject({
    staff: a.email,
    change: "role",
    email: b.email,
    role: "viewer",
  });
  expect(auditOf("staff-role-changed").at(-1)).toMatchObject({
    staff: b.email,
    email: b.email,
    from: "manager",
    to: "viewer",
    requestedBy: a.email,
  });
  await asker.goto(`${own.url}/console/audit`);
  await expect(asker.getByRole("table", { name: /Audit trail/ })).toContainText(
    "Agreed to a staff change another manager asked for",
  );
  await asker.context().close();
  await agreer.context().close();
});

test("a reset ends the person's sessions and passkeys, shows every manager, and lets them enrol again", async ({
  browser,
}) => {
  const manager = own.seed("manager", "resetter");
  const colleague = own.seed("manager", "colleague");
  const lost = own.seed("viewer", "lost-device");
  own.onlyManagers(manager, colleague);
  seedPasskey(lost);
  expect(sessionsOf(lost)).toBe(1);

  const page = await staffPageOf(browser, manager);
  await page.getByRole("button", { name: `Reset ${lost.email}` }).click();
  const status = page.getByRole("status");
  await expect(status).toContainText(`${lost.email} was reset`);
  await expect(status).toContainText("Whoever opens this link first becomes this person");
  const link = (await status.locator(".font-mono").textContent()) ?? "";
  expect(link).toMatch(new RegExp(`^${own.url}/console/enrol\\?token=[\\w-]{43}$`));
  expect(sessionsOf(lost)).toBe(0);
  expect(passkeysOf(lost)).toBe(0);
  const gone = await fetch(`${own.url}/console`, {
    headers: { cookie: `${consoleCookie.name}=${lost.token}` },
    redirect: "manual",
  });
  expect(gone.status).toBe(302);
  expect(auditOf("staff-reset").at(-1)).toMatchObject({ staff: manager.email, email: lost.email });

  // Every manager sees it, waiting for enrolment.
  const other = await staffPageOf(browser, colleague);
  await expect(other.getByRole("listitem").filter({ hasText: lost.email })).toContainText(
    new RegExp(`reset on .* by ${manager.email.replace(/[.]/g, "\\.")}, waiting for enrolment`),
  );
  await other.context().close();

  // The link enrols them afresh, with their role.
  const context = await browser.newContext();
  const enrol = await context.newPage();
  await virtualAuthenticator(enrol);
  await enrol.goto(link);
  await enrol.getByRole("button", { name: "Create a passkey" }).click();
  await expect(enrol).toHaveURL(`${own.url}/console`);
  expect(roleOf(lost)).toBe("viewer");
  expect(passkeysOf(lost)).toBe(1);
  await context.close();
  await page.context().close();
});
