/**
 * The staff console's passkeys end to end (issue 31, docs/decisions/133), in Chromium with
 * a CDP virtual authenticator (internal transport, user verification): the first manager
 * invited from the real CLI, enrolment, sign-out and sign-in, a second passkey, and a
 * revoked person's session that fails on their next request.
 */
import { expect, test } from "@playwright/test";

import {
  auditActionsOf,
  consoleCookie,
  consoleURL,
  inviteFromCli,
  staffCli,
  virtualAuthenticator,
} from "../support/console.ts";

const email = (label: string) => `${label}-${Date.now().toString(36)}@clinic.example`;

test("a manager invited from the CLI enrols, signs out, signs in again and adds a second passkey", async ({
  page,
}) => {
  test.slow();
  const manager = email("ops");
  const link = inviteFromCli(manager, "manager");
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
  const again = await page.goto(link);
  expect(again?.status()).toBe(410);

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

  // A second passkey, made on another authenticator, then used alone.
  await page.goto(`${consoleURL}/console/passkeys`);
  await expect(page.getByRole("table", { name: "Your passkeys" }).locator("tbody tr")).toHaveCount(
    1,
  );
  await first.remove();
  const second = await virtualAuthenticator(page);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("table", { name: "Your passkeys" }).locator("tbody tr")).toHaveCount(
    2,
  );
  expect(await second.credentials()).toHaveLength(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);

  expect(auditActionsOf(manager)).toEqual([
    "enrolled",
    "signed-out",
    "signed-in",
    "passkey-added",
    "signed-out",
    "signed-in",
  ]);
  await page.goto(`${consoleURL}/console/audit`);
  await expect(page.getByRole("table", { name: /Audit trail/ })).toContainText("Added a passkey");
});

test("a revoked person's session stops working on their next request", async ({ browser }) => {
  test.slow();
  const viewer = email("viewer");
  const link = inviteFromCli(viewer, "viewer");
  const context = await browser.newContext();
  const page = await context.newPage();
  await virtualAuthenticator(page);
  await page.goto(link);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
  // A viewer's navigation has no manager pages.
  await expect(page.getByRole("navigation", { name: "Console" })).not.toContainText("Staff");

  const revoked = staffCli("revoke", "--email", viewer);
  expect(revoked.status, revoked.stdout).toBe(0);
  await page.goto(`${consoleURL}/console`);
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);
  // Their passkey went with them: it signs no one in.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("status")).toContainText("not registered");
  await expect(page).toHaveURL(`${consoleURL}/console/sign-in`);

  // Re-invited (a person who lost every passkey), they enrol again.
  await page.goto(inviteFromCli(viewer, "viewer"));
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${consoleURL}/console`);
  await context.close();
});

test("without JavaScript the sign-in page says a passkey needs it, and offers no dead button", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${consoleURL}/console/sign-in`);
  await expect(page.getByText("Signing in needs a passkey and JavaScript")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeHidden();
  await context.close();
  // With JavaScript, the button replaces the notice.
  const page2 = await browser.newPage();
  await page2.goto(`${consoleURL}/console/sign-in`);
  await expect(page2.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await expect(page2.getByText("Signing in needs a passkey and JavaScript")).toBeHidden();
  await page2.close();
});
