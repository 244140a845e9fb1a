import { expect } from "@playwright/test";

import { type Authenticator, type Engine, visible, waitFor } from "./engine.ts";
import type { Journey } from "./journeys.ts";
import { consoleNav } from "../../contract/console.ts";
import {
  auditActionsOf,
  auditEntriesOf,
  consoleCookie,
  consoleFetch,
  consoleURL,
  seedInvite,
  seedPasskey,
  seedSession,
  seedStaff,
  sessionExists,
  setConfirmedAt,
  staffIdOf,
} from "../support/console.ts";

/**
 * The staff console (docs/decisions/133) in Firefox ESR and WebKitGTK, on its own origin
 * (http://localhost and the console port: passkeys need a secure context, and localhost
 * is one over http).
 *
 * In both engines the pages of each role open on a session the test writes into the
 * database and hands over as the session cookie, which on http://localhost is
 * `console-session` without Secure: WebKitGTK 2.50 keeps no Secure cookie there, given by
 * the driver or set by a script, so no `__Host-` one either.
 *
 * Firefox ESR 153 also does the passkey ceremonies, against a virtual authenticator added
 * through Marionette (tests/engines/marionette.ts). WebKitGTK 2.50 cannot: Debian's build
 * has no Web Authentication (no PublicKeyCredential, no feature flag to turn it on) and
 * WebKitWebDriver answers "unknown command" to POST /session/{id}/webauthn/authenticator.
 * So in WebKitGTK the sign-in and enrolment pages load clean under the console's CSP and
 * the passkey script says the browser cannot use passkeys. Each limit is asserted, so a
 * WebKitGTK that lifts one fails here and the journey can grow.
 */

const consoleOrigin = new URL(consoleURL);

async function atConsolePath(engine: Engine, pathname: string) {
  await waitFor(
    async () =>
      (await engine.run(() => `${location.origin}${location.pathname}`)) ===
      `${consoleOrigin.origin}${pathname}`,
    `the address to become ${consoleURL}${pathname}`,
  ).catch(async (error: unknown) => {
    throw new Error(
      `${String(error)}; the page reads: ${await engine.run(() => document.body.innerText)}`,
    );
  });
}

async function settled(engine: Engine) {
  await waitFor(
    () => engine.run(() => document.readyState === "complete"),
    "the page to finish loading",
  );
  expect(await engine.problems()).toEqual([]);
}

async function sessionCookies(engine: Engine) {
  return (await engine.cookies()).filter((cookie) => cookie.name === consoleCookie.name);
}

async function signOut(engine: Engine) {
  await engine.click(await visible(engine, { role: "button", name: "Sign out" }));
  await atConsolePath(engine, "/console/sign-in");
  await visible(engine, { role: "heading", name: "Sign in" });
}

/**
 * A WebAuthn ceremony needs the document focused (NotAllowedError otherwise), and the
 * keyboard journey's last Tab leaves focus in Firefox's toolbar: Tab back in, as a
 * visitor would.
 */
async function focusThePage(engine: Engine) {
  for (let tabs = 0; !(await engine.run(() => document.hasFocus())); tabs += 1) {
    if (tabs === 20) throw new Error("20 presses of Tab did not bring focus back to the page");
    await engine.pressTab();
  }
}

/**
 * Opens a console page with the passkey script: it loads clean and the script runs (it hides
 * the note it replaces). Answers the page's status.
 */
async function openPasskeyPage(engine: Engine, url: string, heading: string) {
  const { status } = await engine.open(url);
  await visible(engine, { role: "heading", name: heading });
  await settled(engine);
  await waitFor(
    () => engine.run(() => !document.body.innerText.includes("needs a passkey and JavaScript")),
    "the passkey script to hide its no-script note",
  );
  return status;
}

type Role = "viewer" | "manager";

/** Enrols a person from an invite on a new virtual authenticator; the console opens. */
async function enrol(engine: Engine, role: Role) {
  const invite = seedInvite(role);
  const authenticator = await engine.addAuthenticator();
  if (!authenticator) throw new Error(`${engine.name} has no virtual authenticator`);
  await engine.open(invite.link);
  await visible(engine, { role: "heading", name: "Create your passkey" });
  await focusThePage(engine);
  await engine.click(await visible(engine, { role: "button", name: "Create a passkey" }));
  await atConsolePath(engine, "/console");
  await visible(engine, { role: "heading", name: "Overview" });
  return { email: invite.email, id: staffIdOf(invite.email), authenticator };
}

type Person = Awaited<ReturnType<typeof enrol>>;

/** A journey of a person just enrolled; their authenticator is removed after it. */
async function asEnrolled(engine: Engine, role: Role, journey: (person: Person) => Promise<void>) {
  const person = await enrol(engine, role);
  try {
    await journey(person);
  } finally {
    await person.authenticator.remove();
  }
}

const openPasskeys = (engine: Engine) =>
  openPasskeyPage(engine, `${consoleURL}/console/passkeys`, "My passkeys");

const rowsOf = (engine: Engine, caption: string) =>
  engine.run(
    (name: string) =>
      [...document.querySelectorAll("table")]
        .find((t) => t.caption?.textContent === name)
        ?.querySelectorAll("tbody tr").length ?? 0,
    caption,
  );

/** Presses a button that first confirms it is the person with their passkey (decision 178). */
async function pressConfirming(engine: Engine, name: string, prefix = false) {
  await focusThePage(engine);
  await engine.click(await visible(engine, { role: "button", name, prefix }));
}

/** A session's next request, made with its cookie alone: where it is sent. */
async function nextRequestOf(token: string) {
  const response = await consoleFetch("/console", { token });
  return response.headers.get("location") ?? String(response.status);
}

/**
 * Passkeys and sessions (docs/decisions/178) in Firefox ESR: each runs on a session the
 * server set and ends signed out, as the role journey after them needs no stray cookie.
 */
const passkeysAndSessions: Journey[] = [
  {
    name: "console: adding a passkey first confirms with one the person has; a session alone cannot",
    engines: ["Firefox ESR"],
    async run(engine) {
      const thief = seedStaff("manager", "engine-stolen");
      const refused = await consoleFetch("/console/passkey", {
        method: "POST",
        token: thief.token,
        json: true,
        body: JSON.stringify({ intent: "options", kind: "add" }),
      });
      expect(refused.status, "options to add a passkey, with a session cookie alone").toBe(403);

      const person = await enrol(engine, "viewer");
      let second: Authenticator | null = null;
      try {
        await openPasskeys(engine);
        expect(await rowsOf(engine, "Your passkeys")).toBe(1);
        // Confirmed with the passkey it holds, this authenticator then refuses to make a
        // second one for the same person.
        await pressConfirming(engine, "Add a passkey");
        await visible(engine, { role: "text", name: "already holds one of your passkeys" });
        await person.authenticator.remove();
        second = await engine.addAuthenticator();
        // Within the confirmation's 5 minutes one press makes it on the other authenticator.
        await pressConfirming(engine, "Add a passkey");
        await waitFor(async () => (await rowsOf(engine, "Your passkeys")) === 2, "two passkeys");
        expect(await second?.credentials()).toBe(1);
        await settled(engine);
        await signOut(engine);
        expect(auditActionsOf(person.email)).toEqual([
          "enrolled",
          "confirmed-with-passkey",
          "passkey-added",
          "signed-out",
        ]);
      } finally {
        await second?.remove();
        await person.authenticator.remove().catch(() => undefined);
      }
    },
  },
  {
    name: "console: removing a passkey confirms first; the last one warns, then signs out everywhere",
    engines: ["Firefox ESR"],
    run: (engine) =>
      asEnrolled(engine, "viewer", async (person) => {
        seedPasskey(person.id);
        const elsewhere = seedSession(person.id);
        await openPasskeys(engine);
        expect(await rowsOf(engine, "Your passkeys")).toBe(2);
        await pressConfirming(engine, "Remove passkey 2");
        await visible(engine, { role: "text", name: "The passkey was removed." });
        expect(await rowsOf(engine, "Your passkeys")).toBe(1);
        expect(
          await engine.find({ role: "button", name: "Remove passkey", prefix: true }),
        ).toBeNull();

        await engine.click(
          await visible(engine, { role: "summary", name: "Remove your only passkey" }),
        );
        await visible(engine, { role: "text", name: "Without it you cannot sign in again" });
        // The confirmation ran out: the press asks again.
        setConfirmedAt({ staffId: person.id }, new Date(Date.now() - 6 * 60_000));
        await engine.click(
          await visible(engine, {
            role: "choice",
            name: "I understand that I will not be able to sign in again",
          }),
        );
        await pressConfirming(engine, "Remove my only passkey");
        await atConsolePath(engine, "/console/sign-in");
        expect(await sessionCookies(engine)).toEqual([]);
        expect(sessionExists(elsewhere), "their other session").toBe(false);
        expect(auditEntriesOf(person.id)).toEqual([
          { action: "enrolled", detail: { role: "viewer" } },
          { action: "confirmed-with-passkey", detail: {} },
          { action: "passkey-removed", detail: { last: false } },
          { action: "confirmed-with-passkey", detail: {} },
          { action: "passkey-removed", detail: { last: true } },
          { action: "sessions-ended", detail: { staff: person.id, count: 2 } },
        ]);
      }),
  },
  {
    name: "console: ending another session confirms first, and that session's next request is signed out",
    engines: ["Firefox ESR"],
    run: (engine) =>
      asEnrolled(engine, "manager", async (person) => {
        const elsewhere = seedSession(person.id);
        const kick = await consoleFetch("/console/passkeys", {
          method: "POST",
          token: elsewhere,
          body: "intent=end-others",
        });
        expect(kick.status, "an unconfirmed session ends no other").toBe(403);
        await openPasskeys(engine);
        expect(await rowsOf(engine, "Your sessions")).toBe(2);
        await visible(engine, { role: "text", name: "This session" });
        await pressConfirming(engine, "End the session signed in at", true);
        await visible(engine, { role: "text", name: "1 session was ended." });
        // The message can come before the list is loaded again.
        await expect.poll(() => rowsOf(engine, "Your sessions")).toBe(1);
        expect(await nextRequestOf(elsewhere)).toBe("/console/sign-in");

        const colleague = seedStaff("viewer", "engine-colleague");
        expect(await nextRequestOf(colleague.token)).toBe("200");
        await engine.open(`${consoleURL}/console/staff`);
        await engine.click(
          await visible(engine, { role: "button", name: `End sessions of ${colleague.email}` }),
        );
        await visible(engine, { role: "text", name: "1 session was ended." });
        expect(await nextRequestOf(colleague.token)).toBe("/console/sign-in");
        await settled(engine);
        await signOut(engine);
        expect(auditEntriesOf(person.id).map((e) => e.action)).toEqual([
          "enrolled",
          "confirmed-with-passkey",
          "sessions-ended",
          "sessions-ended",
          "signed-out",
        ]);
      }),
  },
];

export const consoleJourneys: Journey[] = [
  {
    name: "console: the sign-in page loads clean and its passkey script says what it can do",
    async run(engine) {
      const status = await openPasskeyPage(engine, `${consoleURL}/console/sign-in`, "Sign in");
      expect(status).toBe(200);
      const webAuthn = await engine.run(() => typeof PublicKeyCredential === "function");
      if (engine.name === "WebKitGTK") {
        expect(webAuthn, "WebKitGTK 2.50 as Debian builds it has no WebAuthn").toBe(false);
        expect(await engine.addAuthenticator(), "WebKitWebDriver's authenticator").toBeNull();
        await visible(engine, { role: "text", name: "This browser cannot use passkeys." });
        expect(await engine.find({ role: "button", name: "Sign in with a passkey" })).toBeNull();
      } else {
        expect(webAuthn).toBe(true);
        await visible(engine, { role: "button", name: "Sign in with a passkey" });
      }
    },
  },
  {
    name: "console: a manager enrols a passkey from an invite, signs out and signs in with it",
    engines: ["Firefox ESR"],
    run: (engine) =>
      asEnrolled(engine, "manager", async ({ email, authenticator }) => {
        await visible(engine, { role: "link", name: "Staff", within: "Console" });
        expect(await sessionCookies(engine)).toEqual([
          { name: consoleCookie.name, secure: false, httpOnly: true, sameSite: "Strict" },
        ]);
        expect(await authenticator.credentials()).toBe(1);

        await signOut(engine);
        expect(await sessionCookies(engine)).toEqual([]);
        await engine.click(
          await visible(engine, { role: "button", name: "Sign in with a passkey" }),
        );
        await atConsolePath(engine, "/console");
        await visible(engine, { role: "heading", name: "Overview" });
        await settled(engine);
        await signOut(engine);
        expect(auditActionsOf(email)).toEqual([
          "enrolled",
          "signed-out",
          "signed-in",
          "signed-out",
        ]);
      }),
  },
  ...passkeysAndSessions,
  {
    name: "console: a viewer's and a manager's session open the pages their role may see",
    async run(engine) {
      for (const role of ["viewer", "manager"] as const) {
        const staff = seedStaff(role, `engine-${role}`);
        // A cookie is given for the page's host, so first be on it.
        await engine.open(`${consoleURL}/console/sign-in`);
        await engine.setCookie(consoleCookie.name, staff.token, consoleCookie.secure);
        const { status } = await engine.open(`${consoleURL}/console`);
        expect(status, `${role}: /console`).toBe(200);
        await visible(engine, { role: "heading", name: "Overview" });
        const mine = consoleNav(role).map((item) => item.to);
        for (const item of consoleNav("manager")) {
          const link = { role: "link" as const, name: item.label, within: "Console" };
          if (!mine.includes(item.to)) {
            expect(await engine.find(link), `${role}: ${item.label}`).toBeNull();
            continue;
          }
          const shown = await visible(engine, link);
          // Overview is open already: clicking it would reload the page under the next find.
          if (item.to === "/console") continue;
          await engine.click(shown);
          await atConsolePath(engine, item.to);
          await visible(engine, { role: "heading", name: item.label });
          await settled(engine);
        }
        if (role === "viewer") {
          const refused = await engine.open(`${consoleURL}/console/staff`);
          expect(refused.status).toBe(403);
        }
        await signOut(engine);
        expect(sessionExists(staff.token)).toBe(false);
        // WebKitWebDriver's cookie is host-only, as the server's is; puppeteer gives Firefox
        // one through BiDi with a Domain, which the server's host-only clear does not name
        // (the passkey journey sees Firefox take that clear on the server's own cookie).
        if (engine.name === "WebKitGTK") {
          expect(await sessionCookies(engine), `${role}: the cookie after signing out`).toEqual([]);
        }
        await engine.open(`${consoleURL}/console`);
        await atConsolePath(engine, "/console/sign-in");
      }
    },
  },
  {
    name: "console: an invite opens the enrolment page, which says passkeys cannot be used here",
    engines: ["WebKitGTK"],
    async run(engine) {
      const invite = seedInvite("viewer");
      expect(await openPasskeyPage(engine, invite.link, "Create your passkey")).toBe(200);
      await visible(engine, { role: "text", name: "This browser cannot use passkeys." });
      // Why the console's cookie on http://localhost is not Secure (nor __Host-).
      const fromScript = await engine.run(() => {
        document.cookie = "__Host-probe=1; Secure; Path=/";
        return document.cookie;
      });
      expect(fromScript, "a Secure cookie on http://localhost").toBe("");
    },
  },
];
