/**
 * The staff console's passkeys end to end (issue 31, docs/decisions/133), in Chromium with
 * a CDP virtual authenticator (internal transport, user verification): the first manager
 * invited from the real CLI, enrolment, sign-out and sign-in, a second passkey, and a
 * revoked person's session that fails on their next request. Adding or removing a passkey
 * and ending sessions first confirm the person with one of their passkeys (decision 178).
 */
import { type Page, expect } from "@playwright/test";

import {
  auditActionsOf,
  auditEntriesOf,
  consoleCookie,
  consoleFetch,
  consoleURL,
  inviteFromCli,
  seedPasskey,
  seedSession,
  seedStaff,
  sessionExists,
  setConfirmedAt,
  signInAs,
  staffCli,
  staffIdOf,
  virtualAuthenticator,
  test,
} from "../support/console.ts";
import { tabTo } from "../support/site.ts";

const email = (label: string) => `${label}-${Date.now().toString(36)}@clinic.example`;

const passkeyRows = (page: Page) =>
  page.getByRole("table", { name: "Your passkeys" }).locator("tbody tr");
/** A form on the passkeys page as posted without JavaScript. */
const postPasskeys = (token: string, body: string) =>
  consoleFetch("/console/passkeys", { method: "POST", token, body });

/** A person enrolled from an invite in this page's browser, with its authenticator. */
async function enrolled(page: Page, role: "viewer" | "manager" = "viewer") {
  const address = email(role);
  const authenticator = await virtualAuthenticator(page);
  await page.goto(await inviteFromCli(address, role));
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
  const token = (await page.context().cookies(consoleURL))[0]?.value ?? "";
  return { email: address, id: staffIdOf(address), token, authenticator };
}

test("a manager invited from the CLI enrols, signs out, signs in again and adds a second passkey", async ({
  page,
}) => {
  test.slow();
  const manager = email("ops");
  const link = await inviteFromCli(manager, "manager");
  const first = await virtualAuthenticator(page);

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your passkey");
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  await expect(page.getByRole("navigation", { name: "Console" })).toContainText("Staff");
  const cookies = await page.context().cookies(consoleURL);
  expect(cookies.map((c) => [c.name, c.httpOnly, c.secure, c.sameSite])).toEqual([
    // http://localhost: no __Host- prefix and no Secure, which WebKit would not keep there.
    [consoleCookie.name, true, false, "Strict"],
  ]);
  const enrolledToken = cookies[0]?.value;

  // The link worked once.
  expect((await page.goto(link))?.status()).toBe(410);

  await page.goto(`${consoleURL}/console`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);
  expect(await page.context().cookies(consoleURL)).toEqual([]);
  const signedOut = await page.goto(`${consoleURL}/console/staff`);
  expect(signedOut?.url()).toBe(`${consoleURL}/console/sign-in`);

  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
  const [session] = await page.context().cookies(consoleURL);
  expect(session?.value, "a new session id at sign-in").not.toBe(enrolledToken);

  // A second passkey. The press first confirms it is them with the passkey they have, then
  // asks for a new one, which this authenticator refuses: it holds one of theirs already.
  await page.goto(`${consoleURL}/console/passkeys`);
  await expect(passkeyRows(page)).toHaveCount(1);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "already holds" })).toHaveText(
    "This device or security key already holds one of your passkeys. Add one on another device or key.",
  );
  // On another authenticator, within the confirmation's 5 minutes, one press makes it.
  await first.remove();
  const second = await virtualAuthenticator(page);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(passkeyRows(page)).toHaveCount(2);
  expect(await second.credentials()).toHaveLength(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);

  expect(auditActionsOf(manager)).toEqual([
    "enrolled",
    "signed-out",
    "signed-in",
    "confirmed-with-passkey",
    "passkey-added",
    "signed-out",
    "signed-in",
  ]);
  await page.goto(`${consoleURL}/console/audit`);
  await expect(page.getByRole("table", { name: /Audit trail/ })).toContainText("Added a passkey");
});

test("a revoked person's session stops working on their next request", async ({ page }) => {
  test.slow();
  const { email: viewer } = await enrolled(page);
  // A viewer's navigation has no manager pages.
  await expect(page.getByRole("navigation", { name: "Console" })).not.toContainText("Staff");

  const revoked = await staffCli("revoke", "--email", viewer);
  expect(revoked.status, revoked.stdout).toBe(0);
  await page.goto(`${consoleURL}/console`);
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);
  // Their passkey went with them: it signs no one in.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("status")).toContainText("not registered");
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);

  // Re-invited (a person who lost every passkey), they enrol again.
  await page.goto(await inviteFromCli(viewer, "viewer"));
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
});

test("without JavaScript the sign-in page says a passkey needs it, and offers no dead button", async ({
  browser,
}) => {
  // With JavaScript, the button replaces the notice.
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${consoleURL}/console/sign-in`);
    const notice = page.getByText("Signing in needs a passkey and JavaScript");
    const button = page.getByRole("button", { name: "Sign in with a passkey" });
    await expect(javaScriptEnabled ? button : notice).toBeVisible();
    await expect(javaScriptEnabled ? notice : button).toBeHidden();
    await context.close();
  }
});

test("a session cookie alone cannot add a passkey: it must confirm with one of its person's passkeys first", async ({
  page,
}) => {
  test.slow();
  const ask = (token: string, body: Record<string, unknown>) =>
    consoleFetch("/console/passkey", {
      method: "POST",
      token,
      json: true,
      body: JSON.stringify(body),
    });

  // A stolen cookie (a session written into the database): no options, no new passkey.
  const thief = seedStaff("manager", "stolen");
  for (const body of [
    { intent: "options", kind: "add" },
    {
      intent: "verify",
      kind: "add",
      response: { id: "bm90LWEta2V5", rawId: "bm90LWEta2V5", type: "public-key", response: {} },
    },
  ]) {
    const refused = await ask(thief.token, body);
    expect(refused.status, body.intent).toBe(403);
    expect(await refused.json()).toEqual({
      ok: false,
      confirmFirst: true,
      message: "First confirm it is you with one of your passkeys.",
    });
  }
  const confirm = await ask(thief.token, { intent: "options", kind: "confirm" });
  expect(confirm.status).toBe(400);
  expect(await confirm.json()).toEqual({
    ok: false,
    message: "You have no passkey to confirm with. Ask a manager for a new invitation.",
  });
  // In the browser the one press says so, and nothing is added.
  await signInAs(page.context(), thief);
  const authenticator = await virtualAuthenticator(page);
  await page.goto(`${consoleURL}/console/passkeys`);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("You have no passkey to confirm with.")).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(0);
  await authenticator.remove();
  expect(auditActionsOf(thief.email)).toEqual([]);

  // A person with a passkey: the confirmation lasts 5 minutes, then is asked again.
  const person = await enrolled(page);
  setConfirmedAt(person.token, new Date(Date.now() - 5 * 60_000 - 1000));
  expect((await ask(person.token, { intent: "options", kind: "add" })).status).toBe(403);
  setConfirmedAt(person.token, new Date());
  expect((await ask(person.token, { intent: "options", kind: "add" })).status).toBe(200);
});

test("removing a passkey asks for a confirmation; removing the last one warns, then signs out everywhere", async ({
  page,
}) => {
  test.slow();
  const person = await enrolled(page);
  seedPasskey(person.id);
  const elsewhere = seedSession(person.id);
  await page.goto(`${consoleURL}/console/passkeys`);
  await expect(passkeyRows(page)).toHaveCount(2);
  await expect(passkeyRows(page).nth(1)).toContainText("Security key (USB)");
  await expect(page.getByText("Remove your only passkey")).toHaveCount(0);
  const removal = (id: string) => new URLSearchParams({ intent: "remove", id }).toString();

  // Without a confirmation the server refuses the form as posted without JavaScript.
  const id = await passkeyRows(page).nth(1).locator("input[name=id]").inputValue();
  const refused = await postPasskeys(person.token, removal(id));
  expect(refused.status).toBe(403);
  expect(await refused.text()).toContain("First confirm it is you with one of your passkeys.");

  // With JavaScript one press (here from the keyboard) confirms with their passkey, then
  // removes the lost one.
  await tabTo(page, page.getByRole("button", { name: "Remove passkey 2" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "removed" })).toHaveText(
    "The passkey was removed.",
  );
  await expect(passkeyRows(page)).toHaveCount(1);

  // The last one: a warning and a box to tick; the server refuses it unticked too.
  await expect(page.getByRole("button", { name: /^Remove passkey/ })).toHaveCount(0);
  const last = await page.locator("details input[name=id]").inputValue();
  const unticked = await postPasskeys(person.token, removal(last));
  expect(unticked.status).toBe(400);
  expect(await unticked.text()).toContain("This is your only passkey.");
  await tabTo(page, page.getByText("Remove your only passkey"));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Without it you cannot sign in again")).toBeVisible();
  const understood = page.getByRole("checkbox", { name: /will not be able to sign in again/ });
  await tabTo(page, page.getByRole("button", { name: "Remove my only passkey" }));
  await page.keyboard.press("Enter");
  // Unticked, the browser stops the form at the box.
  await expect(understood).toBeFocused();
  await expect(passkeyRows(page)).toHaveCount(1);
  // The confirmation ran out meanwhile: the press asks again, then signs them out.
  setConfirmedAt(person.token, new Date(Date.now() - 6 * 60_000));
  await page.keyboard.press("Space");
  await expect(understood).toBeChecked();
  await tabTo(page, page.getByRole("button", { name: "Remove my only passkey" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);
  expect(sessionExists(person.token)).toBe(false);
  expect(sessionExists(elsewhere), "their other session").toBe(false);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("status")).toContainText("not registered");

  expect(auditEntriesOf(person.id)).toEqual([
    { action: "enrolled", detail: { role: "viewer" } },
    { action: "confirmed-with-passkey", detail: {} },
    { action: "passkey-removed", detail: { last: false } },
    { action: "confirmed-with-passkey", detail: {} },
    { action: "passkey-removed", detail: { last: true } },
    { action: "sessions-ended", detail: { staff: person.id, count: 2 } },
  ]);
});

test("a person ends their other sessions after confirming, and a manager ends anyone's: the next request is signed out", async ({
  page,
  browser,
}) => {
  test.slow();
  const person = await enrolled(page, "manager");
  const other = await browser.newContext();
  await signInAs(other, { token: seedSession(person.id) });
  const otherPage = await other.newPage();
  await otherPage.goto(`${consoleURL}/console/passkeys`);
  await expect(otherPage.getByRole("heading", { level: 1 })).toHaveText("My passkeys");

  // The other session (a stolen cookie, say) cannot end this one: it has not confirmed.
  const otherToken = (await other.cookies(consoleURL))[0]?.value ?? "";
  expect((await postPasskeys(otherToken, "intent=end-others")).status).toBe(403);
  expect(sessionExists(person.token)).toBe(true);

  await page.goto(`${consoleURL}/console/passkeys`);
  const sessions = page.getByRole("table", { name: "Your sessions" }).locator("tbody tr");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("This session");
  const shown = await page.content();
  expect(shown, "the page never shows a session's token").not.toContain(otherToken);
  expect(shown).not.toContain(person.token);
  await page.getByRole("button", { name: /^End the session signed in at/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "ended" })).toHaveText(
    "1 session was ended.",
  );
  await expect(sessions).toHaveCount(1);
  await otherPage.goto(`${consoleURL}/console/passkeys`);
  await expect(otherPage).toHaveURL(`${consoleURL}/console/sign-in`);

  // A manager ends a colleague's sessions from the staff page.
  const colleague = seedStaff("viewer", "colleague");
  await signInAs(other, colleague);
  await otherPage.goto(`${consoleURL}/console`);
  await expect(otherPage.getByRole("heading", { level: 1 })).toHaveText("Overview");
  await page.goto(`${consoleURL}/console/staff`);
  await page.getByRole("button", { name: `End sessions of ${colleague.email}` }).click();
  await expect(page.getByRole("status")).toContainText("1 session was ended.");
  await otherPage.goto(`${consoleURL}/console`);
  await expect(otherPage).toHaveURL(`${consoleURL}/console/sign-in`);
  await other.close();

  expect(auditEntriesOf(person.id).slice(1)).toEqual([
    { action: "confirmed-with-passkey", detail: {} },
    { action: "sessions-ended", detail: { staff: person.id, count: 1 } },
    { action: "sessions-ended", detail: { staff: colleague.id, count: 1 } },
  ]);
});
