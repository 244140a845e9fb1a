import { writeFileSync } from "node:fs";
import path from "node:path";

import { expect, test } from "@playwright/test";

import type { NewRegistration } from "../../contract/registrations.ts";
import {
  type CaughtMail,
  type MailCatcher,
  startMailCatcher,
} from "../../scripts/lib/mail-catcher.ts";
import {
  newRegistration,
  postRegistration,
  registrationsCli,
  approveSubmitted,
} from "../../scripts/lib/registrations.ts";
import type { ServerProcess } from "../../scripts/lib/server-process.ts";
import { startMailSite } from "../support/mail-site.ts";
import { seedConsent } from "../support/site.ts";

/**
 * Issue 21's registrant-side acceptance, against the production server sending through
 * a real SMTP server (scripts/lib/mail-catcher.ts), with TRUST_PROXY=1 and the
 * production rate limits: one address cannot be made a target (docs/decisions/102), a
 * link scanner cannot confirm anyone (decision 100), and `announce --audience updates`
 * reaches only those who asked (decision 104).
 */

test.describe.configure({ mode: "serial" });

let mail: MailCatcher;
let server: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mail = await startMailCatcher();
  server = await startMailSite(mail, {
    // Links in the emails name this origin; the tests follow them to the server itself.
    SITE_URL: "https://clinic.test",
    TRUST_PROXY: "1",
    // The production limits: 5 a minute and 50 a day per client address.
    RATE_LIMIT_PER_MINUTE: "5",
    RATE_LIMIT_PER_DAY: "50",
    MAIL_PER_MINUTE: "600",
  });
});
test.afterAll(async () => {
  await server?.stop();
  await mail?.close();
});

const cli = (args: string[]) => registrationsCli({ DATA_DIR: server.dataDir }, args);

type Shown = { registrations: { confirmedAt: string | null }[] };
const show = async (email: string) => JSON.parse(await cli(["show", "--email", email])) as Shown;

let clientNumber = 0;
/** A different client address each time, as a proxy in front would report it. */
const fromElsewhere = () => ({ "x-forwarded-for": `198.51.100.${(clientNumber += 1)}` });

/** The form without JavaScript, posted from a client address of its own. */
const register = (person: NewRegistration) =>
  postRegistration(server.url, person, { headers: fromElsewhere() });

/** The link to this path in a message's plain-text part, pointed at the server. */
function linkIn(message: CaughtMail, pathname: string): string {
  const found = (message.parsed.text ?? "")
    .match(/https:\/\/clinic\.test\S+/g)
    ?.map((href) => new URL(href))
    .find((url) => url.pathname === pathname);
  if (!found) throw new Error(`no ${pathname} link in:\n${message.parsed.text}`);
  return `${server.url}${found.pathname}${found.search}`;
}

/** Waits long enough for any further message to this address to have arrived. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));

test("30 registrations of one address from 30 client addresses bring it one confirmation; each is answered as usual", async () => {
  test.setTimeout(180_000);
  const victim = newRegistration("victim").email;
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      register(
        newRegistration("attacker", {
          email: i % 2 ? victim.toUpperCase() : victim,
          name: "URGENT verify your account at https://evil.example/login",
        }),
      ),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
  await mail.waitFor(victim);
  await settle();
  const received = mail.to(victim);
  expect(received).toHaveLength(1);
  expect(received[0]?.parsed.text).not.toContain("evil.example");
  expect(received[0]?.parsed.text).not.toContain("URGENT");
  expect((await show(victim)).registrations).toHaveLength(30);

  // After the person unsubscribes, a new registration of the address is stored and
  // answered exactly as any other, and mails nothing.
  const stop = await fetch(linkIn(received[0]!, "/unsubscribe"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(stop.status).toBe(200);
  const stranger = newRegistration("stranger");
  const again = newRegistration("again", { email: victim });
  const answered = await Promise.all([register(again), register(stranger)]);
  expect(answered.map((a) => a.status)).toEqual([200, 200]);
  await mail.waitFor(stranger.email);
  await settle();
  expect(mail.to(victim)).toHaveLength(1);
  expect((await show(victim)).registrations).toHaveLength(31);
});

test("GET, HEAD and the .data GET of the confirm link confirm nothing; the button does, without JavaScript", async ({
  browser,
  request,
}) => {
  // Five looks through the CLI, each a Node process: 20 s or more each in a full CI run.
  test.setTimeout(240_000);
  const person = newRegistration("scanned");
  expect((await register(person)).status).toBe(200);
  const [confirmation] = await mail.waitFor(person.email);
  const link = linkIn(confirmation!, "/register-interest/confirm");

  // What Safe Links, Proofpoint or Barracuda would do before the person sees the email.
  expect((await request.get(link)).status()).toBe(200);
  expect((await request.head(link)).status()).toBe(200);
  const dataLink = link.replace("/register-interest/confirm", "/register-interest/confirm.data");
  expect((await request.get(dataLink)).status()).toBe(200);
  expect((await show(person.email)).registrations[0]?.confirmedAt).toBeNull();

  const context = await browser.newContext({ javaScriptEnabled: false });
  await seedConsent(context);
  const page = await context.newPage();
  const heading = page.getByRole("heading", { level: 1 });
  expect((await page.goto(link))?.status()).toBe(200);
  await expect(heading).toHaveText("One more step: confirm your email address");
  expect((await show(person.email)).registrations[0]?.confirmedAt).toBeNull();
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(heading).toHaveText("Your email address is confirmed");
  expect((await show(person.email)).registrations[0]?.confirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  const confirmedAt = (await show(person.email)).registrations[0]?.confirmedAt;
  // A second press (a stale tab) and a second visit are harmless.
  const again = await request.post(link, { headers: { origin: server.url }, form: {} });
  expect(again.status()).toBe(200);
  await page.goto(link);
  await expect(heading).toHaveText("Your email address is already confirmed");
  expect((await show(person.email)).registrations[0]?.confirmedAt).toBe(confirmedAt);
  await context.close();
});

test("announce --audience updates reaches only those who ticked the box, once", async ({
  request,
}) => {
  test.setTimeout(240_000);
  const ticked = [newRegistration("news-yes"), newRegistration("news-yes")];
  const unticked = newRegistration("news-no");
  for (const person of [...ticked, unticked]) {
    // The no-JavaScript form's own post: the box's value is "yes" when ticked.
    const response = await fetch(`${server.url}/register-interest`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
        ...fromElsewhere(),
      },
      body: new URLSearchParams({
        name: person.name,
        email: person.email,
        phone: "",
        message: "",
        website: "",
        ...(ticked.includes(person) ? { updates: "yes" } : {}),
      }),
    });
    expect(response.status).toBe(303);
    const [confirmation] = await mail.waitFor(person.email);
    const pressed = await request.post(linkIn(confirmation!, "/register-interest/confirm"), {
      headers: { origin: server.url, ...fromElsewhere() },
      form: {},
    });
    expect(pressed.status()).toBe(200);
    expect((await show(person.email)).registrations[0]?.confirmedAt).not.toBeNull();
  }

  const textFile = path.join(server.dataDir, "news.txt");
  writeFileSync(textFile, "Our prices are now on the site.\n");
  const subject = `News before we open ${Date.now()}`;
  const args = ["announce", "--audience", "updates", "--subject", subject, "--text-file", textFile];
  expect(await cli([...args, "--dry-run"])).toMatch(
    /^\d+ confirmed, subscribed address(es)? that asked for news would receive it/,
  );
  // The first run submits it for a manager's approval (decision 136); the second queues it.
  approveSubmitted(await cli(args), server.dataDir);
  expect(await cli(args)).toMatch(/^Queued announcement [0-9a-f]{32} for \d+ address/);
  const news = (m: CaughtMail) => m.parsed.subject === subject;
  for (const person of ticked) {
    await expect.poll(() => mail.to(person.email).filter(news).length, { timeout: 30_000 }).toBe(1);
    // Confirmed: the announcement may greet by name.
    expect(mail.to(person.email).filter(news)[0]?.parsed.text).toMatch(/^Hello Test Person \d+,/);
  }
  expect(await cli(args)).toMatch(/^Nothing new to send/);
  await settle();
  for (const person of ticked) expect(mail.to(person.email).filter(news)).toHaveLength(1);
  expect(mail.to(unticked.email).filter(news)).toHaveLength(0);
});
