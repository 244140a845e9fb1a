/**
 * Reads of people only from the console itself, and a daily limit on the export
 * (docs/decisions/177): a page on another origin of the same site makes a signed-in
 * manager's browser open the export, a record, a download and a print page; each is
 * refused in words, and the audit trail holds the refusals, not reads the manager never made.
 */
import { randomUUID } from "node:crypto";

import { expect } from "@playwright/test";

import { EXPORTS_PER_DAY } from "../../contract/console.ts";
import {
  auditDetailsOf,
  consoleFetch,
  consoleURL,
  count,
  sameSitePage,
  seedRegistration,
  seedStaff,
  signInAs,
  test,
} from "../support/console.ts";

const reads = ["registrations-exported", "person-viewed", "copy-printed", "copy-downloaded"];
const readsSql = `SELECT count(*) AS n FROM audit_trail WHERE staff_id = ? AND action IN (${reads.map(() => "?").join(", ")})`;
const readsBy = (staffId: string) => count(readsSql, staffId, ...reads);

test("a page on another origin of the same site cannot make a manager's browser read people", async ({
  page,
  context,
}) => {
  const manager = seedStaff("manager");
  const address = `same-site-${randomUUID().slice(0, 8)}@example.co.uk`;
  const id = seedRegistration(address);
  await signInAs(context, manager);
  const people = `${consoleURL}/console/people`;
  const other = await sameSitePage(`<!doctype html>
    <html lang="en"><title>Not the console</title>
    <img src="${people}/download?id=${id}" alt="">
    <img src="${people}/record?id=${id}" alt="">
    <iframe src="${people}/copy?id=${id}" title="copy"></iframe>
    <a href="${people}/export">Export</a></html>`);
  try {
    await page.goto(other.url);
    const refusals = () => auditDetailsOf(manager.id, "request-refused");
    await expect.poll(() => refusals().length).toBe(3);

    const [response] = await Promise.all([
      page.waitForResponse(`${people}/export`),
      page.getByRole("link", { name: "Export" }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.locator("body")).toContainText(
      "This page opens only from the staff console. Go to the console and open it from there.",
    );
    expect(readsBy(manager.id)).toBe(0);
    expect(refusals().sort((a, b) => String(a.route).localeCompare(String(b.route)))).toEqual(
      ["copy", "download", "export", "record"].map((route) => ({
        route: `/console/people/${route}`,
        method: "GET",
        reason: "fetch-site",
      })),
    );
    const trail = JSON.stringify(refusals());
    for (const text of [address, id, "127.0.0.1"]) expect(trail).not.toContain(text);
  } finally {
    await other.close();
  }

  // Opened in the console, or typed, the same pages work.
  await page.goto(`${people}/record?id=${id}`);
  await expect(page.locator("h1")).toHaveText("Registration: Sam Target");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download as a file (JSON)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`subject-access-${id}.json`);
  expect(readsBy(manager.id)).toBe(2);
});

test(`a manager exports at most ${String(EXPORTS_PER_DAY)} times in 24 hours; the next is a plain 429, audited`, async ({
  page,
  context,
}) => {
  const manager = seedStaff("manager");
  await signInAs(context, manager);
  await page.goto(`${consoleURL}/console/people`);
  await expect(page.locator("main")).toContainText(
    `each manager can export ${String(EXPORTS_PER_DAY)} times in any 24 hours`,
  );
  for (let i = 0; i < EXPORTS_PER_DAY; i++) {
    const response = await consoleFetch("/console/people/export", { token: manager.token });
    expect(response.status, `export ${String(i + 1)}`).toBe(200);
  }
  const refused = await consoleFetch("/console/people/export", { token: manager.token });
  expect(refused.status).toBe(429);
  expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await refused.text()).toBe(
    `You have exported every registration ${String(EXPORTS_PER_DAY)} times in the last 24 hours, the most allowed. Use a file you already have, or try again tomorrow.\n`,
  );
  expect(auditDetailsOf(manager.id, "registrations-exported")).toHaveLength(EXPORTS_PER_DAY);
  expect(auditDetailsOf(manager.id, "export-refused")).toEqual([
    { reason: "limit", limit: EXPORTS_PER_DAY },
  ]);
});
