import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { expect, test } from "@playwright/test";
import { simpleParser } from "mailparser";

import {
  type CaughtMail,
  type MailCatcher,
  rawHeader,
  startMailCatcher,
} from "../../scripts/lib/mail-catcher.ts";
import {
  approveSubmitted,
  newRegistration,
  postRegistration,
  registrationsCli,
} from "../../scripts/lib/registrations.ts";
import {
  type Caddy,
  freePort,
  httpsFetch,
  startCaddy,
  type ServerProcess,
  startServer,
} from "../../scripts/lib/server-process.ts";
import { MAIL_CONNECTIONS } from "../../server/mail/transport.ts";
import { announceApproved, startMailSite } from "../support/mail-site.ts";
import { seedConsent } from "../support/site.ts";

/**
 * Issue 11's acceptance, end to end, in the shape it runs: Caddy terminating TLS in
 * front of the production server, which sends through a real SMTP server started
 * here (smtp-server), and every message parsed as a provider would (mailparser).
 * Register, receive the confirmation, open its link, unsubscribe in one click,
 * announce once to the right people, and survive a kill in the middle of it.
 */

test.describe.configure({ mode: "serial" });

const ISO_TIME = /^\d{4}-\d\d-\d\dT/;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

type Site = {
  caddy: Caddy;
  server: ServerProcess;
  restart(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
};

async function startSite(mail: MailCatcher): Promise<Site> {
  const caddyPort = await freePort();
  const env = { SITE_URL: `https://localhost:${caddyPort}`, TRUST_PROXY: "1" };
  const server = await startMailSite(mail, env);
  const site: Site = {
    server,
    caddy: await startCaddy([`127.0.0.1:${server.port}`], { port: caddyPort }),
    async restart(signal) {
      const { port, dataDir } = site.server;
      await site.server.stop(signal);
      site.server = await startMailSite(mail, env, { dataDir, port });
    },
    async stop() {
      await site.caddy.stop();
      await site.server.stop();
    },
  };
  return site;
}

/** The operator's CLI against the site's database, as staff run it. */
const cli = (site: Site, args: string[], env: Record<string, string> = {}) =>
  registrationsCli({ DATA_DIR: site.server.dataDir, ...env }, args);

type Shown = {
  registrations: Array<{
    consent: { version: string; wantsUpdates: boolean; at: string } | null;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
  }>;
};

/** The first registration `show` prints for the address. */
async function shown(site: Site, email: string) {
  return (JSON.parse(await cli(site, ["show", "--email", email])) as Shown).registrations[0];
}

/** The first link in the plain-text part that goes to this path of the site. */
function linkIn(message: CaughtMail, site: Site, pathname: string): string {
  const text = message.parsed.text ?? "";
  const found = text
    .match(/https:\/\/\S+/g)
    ?.map((href) => href.replace(/[>).,]+$/, ""))
    .find((href) => href.startsWith(`${site.caddy.origin}${pathname}?`));
  if (!found) throw new Error(`no ${pathname} link in:\n${text}`);
  return found;
}

/** The https URL inside List-Unsubscribe's angle brackets. */
function unsubscribeUrl(message: CaughtMail): string {
  const header = message.header("list-unsubscribe") ?? "";
  const url = /<(https:[^>]+)>/.exec(header)?.[1];
  if (!url) throw new Error(`List-Unsubscribe has no https URL: ${header}`);
  return url;
}

/** RFC 8058 one-click, as a mail provider sends it: no Origin, no cookies. */
const oneClick = (site: Site, url: string) =>
  httpsFetch(url, site.caddy.ca, {
    method: "POST",
    headers: FORM,
    body: "List-Unsubscribe=One-Click",
  });

/** Registers without a browser and presses the button behind the email's confirm link. */
async function registerAndConfirm(site: Site, mail: MailCatcher, label: string) {
  const person = newRegistration(label);
  expect((await postRegistration(site.server.url, person)).status).toBe(200);
  const [confirmation] = await mail.waitFor(person.email);
  const confirmLink = linkIn(confirmation!, site, "/register-interest/confirm");
  const pressed = await httpsFetch(confirmLink, site.caddy.ca, {
    method: "POST",
    headers: { origin: site.caddy.origin, ...FORM },
    body: "",
  });
  expect(pressed.status).toBe(200);
  return person;
}

test.describe("the registrant's journey, through TLS and a real SMTP server", () => {
  let mail: MailCatcher;
  let site: Site;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    mail = await startMailCatcher();
    site = await startSite(mail);
  });
  test.afterAll(async () => {
    await site?.stop();
    await mail?.close();
  });

  test("register, receive one confirmation with both headers, confirm, and unsubscribe in one click", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const email = `journey-${Date.now()}@example.co.uk`;
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    await seedConsent(context);
    const page = await context.newPage();
    await page.goto(`${site.caddy.origin}/register-interest`);
    await page.getByLabel("Full name").fill("Sam Carter");
    await page.getByLabel("Email address").fill(email);
    const updates = page.locator('input[type="checkbox"][name="updates"]');
    await expect(updates).not.toBeChecked();
    await updates.check();
    await page.getByRole("button", { name: "Register Interest" }).click();
    await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible();

    const message = (await mail.waitFor(email))[0]!;
    // Exactly one, even after a pause for any duplicate to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mail.to(email)).toHaveLength(1);
    expect(message.parsed.from?.text).toContain("hello@clinic.test");
    // Nothing the registrant typed but the address goes to an unconfirmed address.
    expect(message.parsed.text).not.toContain("Sam Carter");
    expect(message.parsed.text).toMatch(/^Hello,\n/);
    expect(message.parsed.html).toBeTruthy();
    expect(message.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = unsubscribeUrl(message);
    expect(unsubscribe.startsWith(`${site.caddy.origin}/unsubscribe?token=`)).toBe(true);

    const before = await shown(site, email);
    expect(before?.confirmedAt).toBeNull();
    expect(before?.consent).toMatchObject({ wantsUpdates: true });
    expect(before?.consent?.version).toMatch(/\S/);

    // The link, opened in the browser as the person would: it asks, the button confirms.
    const confirmLink = linkIn(message, site, "/register-interest/confirm");
    const heading = page.getByRole("heading", { level: 1 });
    expect((await page.goto(confirmLink))?.status()).toBe(200);
    await expect(heading).toHaveText("One more step: confirm your email address");
    expect((await shown(site, email))?.confirmedAt).toBeNull();
    await page.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(heading).toHaveText("Your email address is confirmed");
    expect((await shown(site, email))?.confirmedAt).toMatch(ISO_TIME);
    // A second click is harmless.
    expect((await page.goto(confirmLink))?.status()).toBe(200);

    // Forged and altered tokens: a clear 4xx page, never a 500, nothing changed.
    const token = new URL(confirmLink).searchParams.get("token") ?? "";
    for (const bad of [
      `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      "c.00000000-0000-4000-8000-000000000000.9999999999.forged",
    ]) {
      const url = new URL(confirmLink);
      url.searchParams.set("token", bad);
      const response = await page.goto(url.href);
      expect(response?.status()).toBeGreaterThanOrEqual(400);
      expect(response?.status()).toBeLessThan(500);
      await expect(heading).toBeVisible();
    }

    // Twice, as a provider may.
    for (let i = 0; i < 2; i++) expect((await oneClick(site, unsubscribe)).status).toBe(200);
    expect((await shown(site, email))?.unsubscribedAt).toMatch(ISO_TIME);
    // The GET shows a page with a button and changes nothing by itself.
    expect((await page.goto(unsubscribe))?.status()).toBe(200);
    await context.close();
  });

  test("announce reaches confirmed, subscribed addresses once; a second run reaches nobody", async () => {
    test.setTimeout(240_000);
    const confirmed = [
      await registerAndConfirm(site, mail, "announce"),
      await registerAndConfirm(site, mail, "announce"),
    ];
    const unconfirmed = newRegistration("announce-unconfirmed");
    expect((await postRegistration(site.server.url, unconfirmed)).status).toBe(200);
    await mail.waitFor(unconfirmed.email);
    const unsubscribed = await registerAndConfirm(site, mail, "announce-unsubscribed");
    const [itsConfirmation] = mail.to(unsubscribed.email);
    expect((await oneClick(site, unsubscribeUrl(itsConfirmation!))).status).toBe(200);

    const textFile = path.join(site.server.dataDir, "launch.txt");
    const subject = `We are open ${Date.now()}`;
    writeFileSync(textFile, "We are open.\n\nYou can book a consultation from today.\n");
    const announce = (...extra: string[]) =>
      cli(site, ["announce", "--subject", subject, "--text-file", textFile, ...extra], {
        MAIL_PER_MINUTE: "600",
      });
    // Everyone confirmed here so far, minus the one who unsubscribed (and the journey test's).
    expect(await announce("--dry-run")).toMatch(/^\d+ confirmed, subscribed address/);
    // Submitted first; queued once a manager approved it (decision 136).
    approveSubmitted(await announce(), site.server.dataDir);
    expect(await announce()).toMatch(/^Queued announcement [0-9a-f]{32} for \d+ address/);

    const announcementsTo = (email: string) =>
      mail.to(email).filter((m) => m.parsed.subject === subject);
    for (const person of confirmed) {
      await expect.poll(() => announcementsTo(person.email).length, { timeout: 30_000 }).toBe(1);
      const [received] = announcementsTo(person.email);
      expect(received?.parsed.text).toContain("You can book a consultation from today.");
      expect(received?.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(unsubscribeUrl(received!)).toContain("/unsubscribe?token=");
    }
    expect(await announce()).toMatch(/^Nothing new to send/);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const person of confirmed) expect(announcementsTo(person.email)).toHaveLength(1);
    expect(announcementsTo(unconfirmed.email)).toHaveLength(0);
    expect(announcementsTo(unsubscribed.email)).toHaveLength(0);
  });

  test("a server killed in the middle of an announcement resumes; only a send in flight at the kill can go twice", async () => {
    test.setTimeout(360_000);
    const people = [];
    for (let i = 0; i < 16; i++) people.push(await registerAndConfirm(site, mail, "crash"));
    const subject = `Opening day ${Date.now()}`;
    // 60 a minute: one a second, so the kill lands with most still waiting.
    const out = await announceApproved(
      site.server.dataDir,
      { subject, text: "Our doors open today.\n" },
      { MAIL_PER_MINUTE: "60" },
    );
    const intended = Number(/for (\d+) address/.exec(out)?.[1]);
    expect(intended).toBeGreaterThanOrEqual(people.length);
    const received = () => mail.messages.filter((m) => m.parsed.subject === subject);
    await expect.poll(() => received().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);

    await site.restart("SIGKILL");
    expect(received().length).toBeLessThan(intended);

    // A send the SMTP server answered just before the kill is not marked sent, and goes again
    // once its lease runs out (decision 154: at most one per connection).
    await expect
      .poll(() => cli(site, ["outbox"]), { timeout: 150_000 })
      .toMatch(new RegExp(`"${subject}" {2}queued \\S+: sent ${intended}, waiting 0, failed 0`));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const perAddress = new Map<string, number>();
    for (const m of received()) perAddress.set(m.to, (perAddress.get(m.to) ?? 0) + 1);
    expect(perAddress.size).toBe(intended);
    for (const person of people) expect(perAddress.get(person.email.toLowerCase())).toBeDefined();
    const copies = [...perAddress.values()];
    expect(copies.every((n) => n === 1 || n === 2)).toBe(true);
    expect(copies.filter((n) => n === 2).length).toBeLessThanOrEqual(MAIL_CONNECTIONS);
  });
});

test("with SMTP_URL unset, the confirmation is written as an .eml file under DATA_DIR/mail", async () => {
  test.setTimeout(120_000);
  const server = await startServer();
  try {
    const person = newRegistration("eml");
    expect((await postRegistration(server.url, person)).status).toBe(200);
    const mailDir = path.join(server.dataDir, "mail");
    const emlFiles = () =>
      (existsSync(mailDir) ? readdirSync(mailDir) : []).filter((f) => f.endsWith(".eml"));
    await expect.poll(emlFiles, { timeout: 20_000 }).toHaveLength(1);
    const [file] = readdirSync(mailDir);
    // The file is listed from the moment it is opened: read it once the writing has ended.
    const read = () => simpleParser(readFileSync(path.join(mailDir, file!)));
    const recipient = async () => {
      const { to } = await read();
      return to && "text" in to ? to.text : "";
    };
    await expect.poll(recipient, { timeout: 10_000 }).toContain(person.email);
    const parsed = await read();
    expect(rawHeader(parsed, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(parsed.text).toMatch(/http:\/\/localhost:\d+\/register-interest\/confirm\?token=/);
    // The log says where, and never whose. The mail thread's lines reach the process's stdout
    // through the main thread, so the line may follow the file by a moment.
    const line = () => server.output.find((l) => l.includes(file!));
    await expect.poll(line, { timeout: 10_000 }).toBeDefined();
    expect(line()).not.toContain(person.email);
  } finally {
    await server.stop();
  }
});
