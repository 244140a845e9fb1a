/**
 * Every console page (docs/decisions/133) at 390 and 1280 px: axe finds no WCAG 2.2 AA
 * violation, nothing overflows the width, and one h1; the W3C Nu HTML checker finds no
 * error in any of them. Sessions and invites are written into the database
 * (tests/support/console.ts), so no ceremony is needed.
 */
import { randomUUID } from "node:crypto";

import { type BrowserContext, expect } from "@playwright/test";

import { uniqueEmail } from "../../scripts/lib/registrations.ts";
import { classConflicts } from "../support/class-conflicts.ts";
import {
  type SeededStaff,
  consoleFetch,
  consoleURL,
  seedAnnouncement,
  seedInvite,
  seedPasskey,
  seedRegistration,
  seedSession,
  seedStaff,
  signInAs,
  withDatabase,
  test,
} from "../support/console.ts";
import { nuErrors } from "../support/nu.ts";
import { axeViolations, tabTo, viewports } from "../support/site.ts";

type ConsolePage = {
  label: string;
  path: () => string;
  as?: "viewer" | "manager";
  /** What the signed-in staff member has before the page loads (passkeys, other sessions). */
  setUp?: (staff: SeededStaff) => void;
  status: number;
  /** A form to send first, to check the page it answers with (`body`: as the Nu check posts it). */
  submit?: {
    button: string;
    fill?: Record<string, string>;
    body?: Record<string, string>;
    status?: number;
  };
};

/** A promotion another manager asked for, and a reset waiting for enrolment (decision 175). */
function seedStaffChanges() {
  const asker = seedStaff("manager", "asker");
  const target = seedStaff("viewer", "promoted");
  const reset = seedStaff("viewer", "reset");
  const now = new Date();
  withDatabase((db) => {
    db.prepare(
      `INSERT INTO staff_requests (id, change, staff_id, email, role, requested_by, requested_at)
       VALUES (?, 'role', ?, ?, 'manager', ?, ?)`,
    ).run(randomUUID(), target.id, target.email, asker.id, now.toISOString());
    db.prepare("UPDATE staff SET removed_at = ? WHERE id = ?").run(now.toISOString(), reset.id);
    db.prepare(
      `INSERT INTO staff_invites (token_hash, email, role, created_at, expires_at, used_at,
         invited_by, reset) VALUES (?, ?, 'viewer', ?, ?, NULL, ?, 1)`,
    ).run(
      randomUUID(),
      reset.email,
      now.toISOString(),
      new Date(now.getTime() + 86_400_000).toISOString(),
      asker.id,
    );
  });
}

/** The address each "erased" entry must type again, set when its registration is made. */
const erasing = new Map<string, string>();

const consolePages: ConsolePage[] = [
  { label: "sign-in", path: () => "/console/sign-in", status: 200 },
  { label: "enrol", path: () => `/console/enrol?token=${seedInvite("viewer").token}`, status: 200 },
  { label: "enrol, used link", path: () => "/console/enrol?token=used", status: 410 },
  { label: "overview", path: () => "/console", as: "viewer", status: 200 },
  { label: "overview, as a manager", path: () => "/console", as: "manager", status: 200 },
  {
    label: "overview, a staff change waiting",
    path: () => {
      seedStaffChanges();
      return "/console";
    },
    as: "manager",
    status: 200,
  },
  { label: "my passkeys", path: () => "/console/passkeys", as: "viewer", status: 200 },
  {
    label: "my passkeys, two of them and three sessions",
    path: () => "/console/passkeys",
    as: "viewer",
    setUp: (staff) => {
      for (let i = 0; i < 2; i += 1) {
        seedPasskey(staff.id);
        seedSession(staff.id);
      }
    },
    status: 200,
  },
  {
    label: "my passkeys, the only one",
    path: () => "/console/passkeys",
    as: "manager",
    setUp: (staff) => seedPasskey(staff.id),
    status: 200,
  },
  { label: "staff", path: () => "/console/staff", as: "manager", status: 200 },
  {
    label: "staff, an invitation made",
    path: () => "/console/staff",
    as: "manager",
    status: 200,
    submit: { button: "Create invitation", fill: { "Email address": "new@clinic.example" } },
  },
  {
    label: "staff, an invalid address",
    path: () => "/console/staff",
    as: "manager",
    status: 200,
    submit: { button: "Create invitation", fill: { "Email address": "new@clinic" } },
  },
  {
    label: "staff, a change waiting for a second manager and a person reset",
    path: () => {
      seedStaffChanges();
      return "/console/staff";
    },
    as: "manager",
    status: 200,
  },
  { label: "audit trail", path: () => "/console/audit", as: "manager", status: 200 },
  { label: "people", path: () => "/console/people", as: "manager", status: 200 },
  {
    label: "people, no registration with that address",
    path: () => "/console/people",
    as: "manager",
    status: 200,
    submit: {
      button: "Find",
      fill: { "Email address": "nobody-here@example.co.uk" },
      body: { intent: "find", email: "nobody-here@example.co.uk" },
    },
  },
  {
    label: "people, an invalid address",
    path: () => "/console/people",
    as: "manager",
    status: 200,
    submit: {
      button: "Find",
      fill: { "Email address": "nobody@" },
      body: { intent: "find", email: "nobody@" },
      status: 400,
    },
  },
  {
    label: "a person's record",
    path: () => `/console/people/record?id=${seedRegistration(uniqueEmail("a11y-record"))}`,
    as: "manager",
    status: 200,
  },
  {
    label: "a person's record, erase refused",
    path: () => `/console/people/record?id=${seedRegistration(uniqueEmail("a11y-refused"))}`,
    as: "manager",
    status: 200,
    submit: {
      button: "Erase everything for this address",
      fill: { "Type the email address again to confirm": "someone-else@example.co.uk" },
      body: { intent: "erase", email: "someone-else@example.co.uk" },
      status: 400,
    },
  },
  {
    label: "a person's record, erased",
    path: () => {
      const email = uniqueEmail("a11y-erased");
      erasing.set("a person's record, erased", email);
      return `/console/people/record?id=${seedRegistration(email)}`;
    },
    as: "manager",
    status: 200,
    submit: { button: "Erase everything for this address", fill: {}, body: {} },
  },
  {
    label: "a person's record, nothing to show",
    path: () => "/console/people/record",
    as: "manager",
    status: 200,
  },
  {
    label: "subject access copy to print",
    path: () => `/console/people/copy?id=${seedRegistration(uniqueEmail("a11y-copy"))}`,
    as: "manager",
    status: 200,
  },
  { label: "announcements", path: () => "/console/announcements", as: "manager", status: 200 },
  {
    label: "an announcement with the medicine warning",
    path: () =>
      `/console/announcements/draft?id=${seedAnnouncement(seedStaff("manager", "author"), {
        subject: "Nebido is here",
        body: "From £45 a month.\n\nAsk your doctor.",
      })}`,
    as: "manager",
    status: 200,
  },
  {
    label: "an announcement with the medicine warning, waiting for approval",
    path: () =>
      `/console/announcements/draft?id=${seedAnnouncement(seedStaff("manager", "author"), {
        subject: "Nebido is here",
        body: "From £45 a month.",
        state: "submitted",
      })}`,
    as: "manager",
    status: 200,
  },
  {
    label: "an announcement approved by its author alone",
    path: () =>
      `/console/announcements/draft?id=${seedAnnouncement(seedStaff("manager", "author"), {
        state: "approved",
        approvedAlone: true,
      })}`,
    as: "manager",
    status: 200,
  },
  {
    label: "an announcement being sent",
    path: () =>
      `/console/announcements/draft?id=${seedAnnouncement(seedStaff("manager", "author"), {
        state: "sending",
      })}`,
    as: "manager",
    status: 200,
  },
  { label: "not for your role", path: () => "/console/staff", as: "viewer", status: 403 },
  { label: "console 404", path: () => "/console/no-such-page", as: "viewer", status: 404 },
];

async function sessionFor(context: BrowserContext, role: "viewer" | "manager" | undefined) {
  if (!role) return undefined;
  const staff = seedStaff(role);
  await signInAs(context, staff);
  return staff;
}

for (const [size, viewport] of Object.entries(viewports)) {
  test.describe(`console pages at ${viewport.width}px`, () => {
    test.use({ viewport });
    for (const entry of consolePages) {
      test(`${entry.label} (${size})`, async ({ page, context }) => {
        const staff = await sessionFor(context, entry.as);
        if (staff) entry.setUp?.(staff);
        // A CSP refusal or a script error shows here.
        const errors: string[] = [];
        page.on("console", (message) => {
          const text = message.text();
          // The test's own tools (axe, locators) try every frame; the announcement preview's
          // sandboxed frame refuses them, as it refuses any script, and Chromium says so.
          if (/^Blocked script execution in 'about:srcdoc' because .* sandboxed/.test(text)) return;
          if (message.type() === "error" && !/status of 4\d\d/.test(text)) errors.push(text);
        });
        page.on("pageerror", (error) => errors.push(error.message));
        const response = await page.goto(`${consoleURL}${entry.path()}`);
        expect(response?.status()).toBe(entry.status);
        if (entry.submit) {
          const fill = { ...entry.submit.fill };
          const retype = erasing.get(entry.label);
          if (retype) fill["Type the email address again to confirm"] = retype;
          for (const [label, value] of Object.entries(fill)) {
            await page.getByLabel(label).fill(value);
          }
          // The browser's own check of type=email would stop an invalid address.
          await page
            .locator("form")
            .last()
            .evaluate((form) => form.setAttribute("novalidate", ""));
          await page.getByRole("button", { name: entry.submit.button }).click();
          await page.waitForLoadState("load");
        }
        await expect(page.locator("h1")).toHaveCount(1);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, "horizontal overflow").toBeLessThanOrEqual(0);
        const at = `${entry.label} at ${viewport.width}px`;
        // The email preview's frame runs no script, so axe cannot enter it.
        expect(await axeViolations(page, undefined, "iframe"), `axe violations on ${at}`).toEqual(
          [],
        );
        expect(await classConflicts(page), `class conflicts on ${at}`).toEqual([]);
        expect(errors, "console errors").toEqual([]);
      });
    }
  });
}

test("every console page's HTML has no Nu HTML checker error", async () => {
  test.setTimeout(180_000);
  const staff: Record<string, SeededStaff> = {
    viewer: seedStaff("viewer"),
    manager: seedStaff("manager"),
  };
  const pages = new Map<string, string>();
  for (const entry of consolePages) {
    const signedIn = entry.as ? staff[entry.as] : undefined;
    if (signedIn) entry.setUp?.(signedIn);
    const token = signedIn?.token;
    const path = entry.path();
    const retype = erasing.get(entry.label);
    const response = entry.submit
      ? await consoleFetch(path, {
          method: "POST",
          token,
          body: new URLSearchParams(
            entry.submit.body
              ? { ...entry.submit.body, ...(retype ? { intent: "erase", email: retype } : {}) }
              : {
                  intent: "invite",
                  email: entry.submit.fill?.["Email address"] ?? "",
                  role: "viewer",
                },
          ).toString(),
        })
      : await consoleFetch(path, { token });
    expect(response.status, entry.label).toBe(
      entry.submit?.status ??
        (entry.submit && entry.label.includes("invalid") ? 400 : entry.status),
    );
    pages.set(`/${entry.label}`, await response.text());
  }
  expect(await nuErrors(pages)).toEqual([]);
});

test("a keyboard reaches every control of the sign-in and staff pages, with focus always visible", async ({
  page,
  context,
}) => {
  await page.setViewportSize(viewports.mobile);
  await page.goto(`${consoleURL}/console/sign-in`);
  await tabTo(page, page.getByRole("button", { name: "Sign in with a passkey" }));

  seedStaff("viewer", "colleague");
  await sessionFor(context, "manager");
  await page.goto(`${consoleURL}/console/staff`);
  await tabTo(page, page.getByRole("link", { name: "Skip to main content" }), { max: 2 });
  await tabTo(page, page.getByRole("button", { name: "Sign out" }));
  // One person's controls, then the invitation form (every test's staff are listed between).
  await tabTo(page, page.getByRole("button", { name: /^Remove / }).first(), { max: 30 });
  await page.getByLabel("Email address").focus();
  await tabTo(page, page.getByRole("button", { name: "Create invitation" }), { max: 5 });
});
