import { expect } from "@playwright/test";

import { type Engine, visible, waitFor } from "./engine.ts";
import type { Journey } from "./journeys.ts";
import { consoleNav } from "../../app/content/console.ts";
import {
  SESSION_COOKIE,
  auditActionsOf,
  consoleURL,
  seedInvite,
  seedStaff,
  sessionExists,
} from "../support/console.ts";

/**
 * The staff console (docs/decisions/133) in Firefox ESR and WebKitGTK, on its own origin
 * (http://localhost and the console port: passkeys need a secure context, and localhost
 * is one over http).
 *
 * Firefox ESR 153 does it all: the passkey ceremonies against a virtual authenticator
 * added through Marionette (tests/engines/marionette.ts), and the pages of each role on a
 * session the test writes into the database and hands over as the `__Host-` cookie.
 *
 * WebKitGTK 2.50 can do neither here. Debian's build has no Web Authentication (no
 * PublicKeyCredential, no feature flag to turn it on) and WebKitWebDriver answers
 * "unknown command" to POST /session/{id}/webauthn/authenticator. And it keeps no
 * Secure cookie for http://localhost (given by the driver or set by a script), so no
 * `__Host-` session cookie either: staff pages cannot be reached over http. Production is https behind Caddy (the image test checks the console there). So in
 * WebKitGTK the journeys check what holds on http: the sign-in and enrolment pages load
 * clean under the console's CSP, the passkey script says the browser cannot use passkeys,
 * and without a session every staff page sends to sign-in. Each limit is asserted, so a
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
  return (await engine.cookies()).filter((cookie) => cookie.name === SESSION_COOKIE);
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

/** The passkey script has run: it hides the note it replaces. */
async function passkeyScriptRan(engine: Engine) {
  await waitFor(
    () => engine.run(() => !document.body.innerText.includes("needs a passkey and JavaScript")),
    "the passkey script to hide its no-script note",
  );
}

export const consoleJourneys: Journey[] = [
  {
    name: "console: the sign-in page loads clean and its passkey script says what it can do",
    async run(engine) {
      const { status } = await engine.open(`${consoleURL}/console/sign-in`);
      expect(status).toBe(200);
      await visible(engine, { role: "heading", name: "Sign in" });
      await settled(engine);
      await passkeyScriptRan(engine);
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
    async run(engine) {
      const invite = seedInvite("manager");
      const authenticator = await engine.addAuthenticator();
      if (!authenticator) throw new Error(`${engine.name} has no virtual authenticator`);
      try {
        await engine.open(invite.link);
        await visible(engine, { role: "heading", name: "Create your passkey" });
        await focusThePage(engine);
        await engine.click(await visible(engine, { role: "button", name: "Create a passkey" }));
        await atConsolePath(engine, "/console");
        await visible(engine, { role: "heading", name: "Overview" });
        await visible(engine, { role: "link", name: "Staff", within: "Console" });
        expect(await sessionCookies(engine)).toEqual([
          { name: SESSION_COOKIE, secure: true, httpOnly: true, sameSite: "Strict" },
        ]);
        expect(await authenticator.credentials()).toBe(1);

        await signOut(engine);
        // The server's Set-Cookie that clears a __Host- cookie was taken over http://localhost.
        expect(await sessionCookies(engine)).toEqual([]);
        await engine.click(
          await visible(engine, { role: "button", name: "Sign in with a passkey" }),
        );
        await atConsolePath(engine, "/console");
        await visible(engine, { role: "heading", name: "Overview" });
        await settled(engine);
        await signOut(engine);
        expect(auditActionsOf(invite.email)).toEqual([
          "enrolled",
          "signed-out",
          "signed-in",
          "signed-out",
        ]);
      } finally {
        await authenticator.remove();
      }
    },
  },
  {
    name: "console: a viewer's and a manager's session open the pages their role may see",
    engines: ["Firefox ESR"],
    async run(engine) {
      for (const role of ["viewer", "manager"] as const) {
        const staff = seedStaff(role, `engine-${role}`);
        // A cookie is given for the page's host, so first be on it.
        await engine.open(`${consoleURL}/console/sign-in`);
        await engine.setCookie(SESSION_COOKIE, staff.token);
        const { status } = await engine.open(`${consoleURL}/console`);
        expect(status, `${role}: /console`).toBe(200);
        await visible(engine, { role: "heading", name: "Overview" });
        for (const item of consoleNav) {
          const link = { role: "link" as const, name: item.label, within: "Console" };
          if (item.managers && role === "viewer") {
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
        await engine.open(`${consoleURL}/console`);
        await atConsolePath(engine, "/console/sign-in");
      }
    },
  },
  {
    name: "console: with no session allowed on http, staff pages send to sign-in; an invite opens",
    engines: ["WebKitGTK"],
    async run(engine) {
      const staff = seedStaff("manager", "engine-webkit");
      await engine.open(`${consoleURL}/console/sign-in`);
      await engine.setCookie(SESSION_COOKIE, staff.token);
      const fromScript = await engine.run(() => {
        document.cookie = "__Host-probe=1; Secure; Path=/";
        return document.cookie;
      });
      expect(fromScript, "a Secure cookie on http://localhost").toBe("");
      expect(await sessionCookies(engine), "the driver's __Host- cookie").toEqual([]);
      for (const item of consoleNav) {
        await engine.open(`${consoleURL}${item.to}`);
        await atConsolePath(engine, "/console/sign-in");
        await visible(engine, { role: "heading", name: "Sign in" });
        await settled(engine);
      }
      const invite = seedInvite("viewer");
      expect((await engine.open(invite.link)).status).toBe(200);
      await visible(engine, { role: "heading", name: "Create your passkey" });
      await settled(engine);
      await passkeyScriptRan(engine);
      await visible(engine, { role: "text", name: "This browser cannot use passkeys." });
    },
  },
];
