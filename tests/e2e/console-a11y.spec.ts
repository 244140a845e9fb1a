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
  /** A function where the page needs something made for it first. */
  path: string | (() => string);
  as?: "viewer" | "manager";
  /** What is in place before the page loads (passkeys, other sessions, staff changes). */
  setUp?: (staff: SeededStaff) => void;
  /** 200 unless given. */
  status?: number;
  /** A form sent first (a function where it needs what `path` made). */
  submit?: Submit | (() => Submit);
};

/** The browser fills `fill`; the Nu check posts `body` and expects `status` (200 unless given). */
type Submit = {
  button: string;
  fill: Record<string, string>;
  body: Record<string, string>;
  status?: number;
};

/** A promotion another manager asked for, and a reset waiting for enrolment (decision 175). */
function seedStaffChanges() {
  const asker = seedStaff("manager", "asker");
  const target = seedStaff("viewer", "promoted");
  const reset = seedStaff("viewer", "reset");
  const now = new Date();
  const at = now.toISOString();
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString();
  withDatabase((db) => {
    db.prepare(
      `INSERT INTO staff_requests (id, change, staff_id, email, role, requested_by, requested_at)
       VALUES (?, 'role', ?, ?, 'manager', ?, ?)`,
    ).run(randomUUID(), target.id, target.email, asker.id, at);
    db.prepare("UPDATE staff SET removed_at = ? WHERE id = ?").run(at, reset.id);
    db.prepare(
      `INSERT INTO staff_invites (token_hash, email, role, created_at, expires_at, used_at,
         invited_by, reset) VALUES (?, ?, 'viewer', ?, ?, NULL, ?, 1)`,
    ).run(randomUUID(), reset.email, at, tomorrow, asker.id);
  });
}

/** A registration's page in the console: its record, or the subject access copy to print. */
const personPath = (page: "record" | "copy", email: string) =>
  `/console/people/${page}?id=${seedRegistration(email)}`;

/** An announcement's page, written by another manager. */
const draftPath = (options: Parameters<typeof seedAnnouncement>[1]) =>
  `/console/announcements/draft?id=${seedAnnouncement(seedStaff("manager", "author"), options)}`;

/** A form's button, the one field the browser fills, and the body the Nu check posts. */
const form = (button: string, field: string, body: { email: string; [key: string]: string }) => ({
  button,
  fill: { [field]: body.email },
  body,
});
const invite = (email: string) =>
  form("Create invitation", "Email address", { intent: "invite", email, role: "viewer" });
const find = (email: string) => form("Find", "Email address", { intent: "find", email });
const erase = (email: string) =>
  form("Erase everything for this address", "Type the email address again to confirm", {
    intent: "erase",
    email,
  });

/** The address the "erased" row must type again, set when its registration is made. */
let erasedAddress = "";

/** A page seen in `role`'s session, with what else its row needs. */
const signedIn =
  (role: "viewer" | "manager") =>
  (label: string, path: ConsolePage["path"], more: Partial<ConsolePage> = {}): ConsolePage => ({
    label,
    path,
    as: role,
    ...more,
  });
const viewer = signedIn("viewer");
const manager = signedIn("manager");
/** A new registration's record, its address made from `label`. */
const record = (label: string) => () => personPath("record", uniqueEmail(label));
const nebido = { subject: "Nebido is here", body: "From £45 a month." };

const consolePages: ConsolePage[] = [
  { label: "sign-in", path: "/console/sign-in" },
  { label: "enrol", path: () => `/console/enrol?token=${seedInvite("viewer").token}` },
  { label: "enrol, used link", path: "/console/enrol?token=used", status: 410 },
  viewer("overview", "/console"),
  manager("overview, a staff change waiting", "/console", { setUp: seedStaffChanges }),
  viewer("my passkeys", "/console/passkeys"),
  viewer("my passkeys, two of them and three sessions", "/console/passkeys", {
    setUp: (staff) => {
      for (let i = 0; i < 2; i += 1) {
        seedPasskey(staff.id);
        seedSession(staff.id);
      }
    },
  }),
  manager("my passkeys, the only one", "/console/passkeys", {
    setUp: (staff) => seedPasskey(staff.id),
  }),
  manager("staff", "/console/staff"),
  manager("staff, an invitation made", "/console/staff", { submit: invite("new@clinic.example") }),
  manager("staff, an invalid address", "/console/staff", {
    submit: { ...invite("new@clinic"), status: 400 },
  }),
  manager("staff, a change waiting for a second manager and a person reset", "/console/staff", {
    setUp: seedStaffChanges,
  }),
  manager("audit trail", "/console/audit"),
  manager("people, no registration with that address", "/console/people", {
    submit: find("nobody-here@example.co.uk"),
  }),
  manager("people, an invalid address", "/console/people", {
    submit: { ...find("nobody@"), status: 400 },
  }),
  manager("a person's record", record("a11y-record")),
  manager("a person's record, erase refused", record("a11y-refused"), {
    submit: { ...erase("someone-else@example.co.uk"), status: 400 },
  }),
  manager(
    "a person's record, erased",
    () => {
      erasedAddress = uniqueEmail("a11y-erased");
      return personPath("record", erasedAddress);
    },
    { submit: () => erase(erasedAddress) },
  ),
  manager("a person's record, nothing to show", "/console/people/record"),
  manager("subject access copy to print", () => personPath("copy", uniqueEmail("a11y-copy"))),
  manager("announcements", "/console/announcements"),
  manager("an announcement with the medicine warning", () =>
    draftPath({ ...nebido, body: `${nebido.body}\n\nAsk your doctor.` }),
  ),
  manager("an announcement with the medicine warning, waiting for approval", () =>
    draftPath({ ...nebido, state: "submitted" }),
  ),
  manager("an announcement approved by its author alone", () =>
    draftPath({ state: "approved", approvedAlone: true }),
  ),
  manager("an announcement being sent", () => draftPath({ state: "sending" })),
  viewer("not for your role", "/console/staff", { status: 403 }),
  viewer("console 404", "/console/no-such-page", { status: 404 }),
];

const pathOf = ({ path }: ConsolePage) => (typeof path === "string" ? path : path());

async function sessionFor(context: BrowserContext, role: "viewer" | "manager" | undefined) {
  if (!role) return undefined;
  const staff = seedStaff(role);
  await signInAs(context, staff);
  return staff;
}

// One load per page, measured at phone width and then at desktop width: the console's layout
// is CSS alone, so a resized page lays out as one loaded at that width, and the sign-in, the
// seeding and the form's post are made once, not twice (console-a11y was the longest spec).
test.describe("console pages at 390 and 1280 px", () => {
  test.use({ viewport: viewports.mobile });
  for (const entry of consolePages) {
    test(entry.label, async ({ page, context }) => {
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
      const response = await page.goto(`${consoleURL}${pathOf(entry)}`);
      expect(response?.status()).toBe(entry.status ?? 200);
      const submit = typeof entry.submit === "function" ? entry.submit() : entry.submit;
      if (submit) {
        for (const [label, value] of Object.entries(submit.fill)) {
          await page.getByLabel(label).fill(value);
        }
        // The browser's own check of type=email would stop an invalid address.
        const form = page.locator("form").last();
        await form.evaluate((element) => element.setAttribute("novalidate", ""));
        await page.getByRole("button", { name: submit.button }).click();
        await page.waitForLoadState("load");
      }
      await expect(page.locator("h1")).toHaveCount(1);
      expect(await classConflicts(page), `class conflicts on ${entry.label}`).toEqual([]);
      for (const viewport of Object.values(viewports)) {
        await page.setViewportSize(viewport);
        const at = `${entry.label} at ${viewport.width}px`;
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect.soft(overflow, `horizontal overflow on ${at}`).toBeLessThanOrEqual(0);
        // The email preview's frame runs no script, so axe cannot enter it.
        const violations = await axeViolations(page, undefined, "iframe");
        expect.soft(violations, `axe violations on ${at}`).toEqual([]);
      }
      expect(errors, "console errors").toEqual([]);
    });
  }
});

test("every console page's HTML has no Nu HTML checker error", async () => {
  test.setTimeout(180_000);
  const staff = { viewer: seedStaff("viewer"), manager: seedStaff("manager") };
  const pages = new Map<string, string>();
  for (const entry of consolePages) {
    const signedIn = entry.as && staff[entry.as];
    if (signedIn) entry.setUp?.(signedIn);
    const path = pathOf(entry);
    const submit = typeof entry.submit === "function" ? entry.submit() : entry.submit;
    const response = await consoleFetch(path, {
      method: submit && "POST",
      token: signedIn?.token,
      body: submit && new URLSearchParams(submit.body).toString(),
    });
    expect(response.status, entry.label).toBe(submit?.status ?? entry.status ?? 200);
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
