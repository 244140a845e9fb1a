import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { expect, test } from "@playwright/test";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";

import type { NewRegistration } from "../../contract/registrations.ts";
import { type CaughtMail, startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { newRegistration, registrationsCli } from "../../scripts/lib/registrations.ts";
import type { ServerProcess } from "../../scripts/lib/server-process.ts";
import {
  announceApproved,
  confirmAll,
  confirmationsArrived,
  registerAll,
  startMailSite,
} from "../support/mail-site.ts";

/**
 * Issue 21, the delivery side, end to end: the production server sending through the
 * test SMTP server (scripts/lib/mail-catcher.ts) while it is slow or refuses, with the
 * operator's CLI run beside it as staff would. What each test costs is in its title.
 */

const cli = (dataDir: string, args: string[]) => registrationsCli({ DATA_DIR: dataDir }, args);

/** The path and query of the List-Unsubscribe https URL, against this server. */
function unsubscribeUrl(server: ServerProcess, message: CaughtMail): string {
  const header = message.header("list-unsubscribe") ?? "";
  const url = /<(https?:[^>]+)>/.exec(header)?.[1];
  if (!url) throw new Error(`List-Unsubscribe has no URL: ${header}`);
  const { pathname, search } = new URL(url);
  return `${server.url}${pathname}${search}`;
}

test("a slow mail server (1.5 s a message): 100 announced once each, and nothing after erase or unsubscribe [~75 s]", async () => {
  test.setTimeout(600_000);
  const mail = await startMailCatcher();
  const server = await startMailSite(mail);
  try {
    const people = Array.from({ length: 102 }, () => newRegistration("slow"));
    await registerAll([server], people);
    await confirmationsArrived(mail, people);
    confirmAll(server.dataDir);

    // The announcement goes newest first, so the first two registered are among the last.
    const [erased, unsubscribed] = people as [NewRegistration, NewRegistration];
    const unsubscribeAt = unsubscribeUrl(server, mail.to(unsubscribed.email)[0]!);
    const subject = `Opening ${Date.now()}`;
    mail.delayMs = 1_500;
    const text = "Our doors open today.\n";
    expect(
      await announceApproved(server.dataDir, { subject, text }, { MAIL_PER_MINUTE: "6000" }),
    ).toMatch(/^Queued announcement [0-9a-f]{32} for \d+ address/);
    const announced = () => mail.messages.filter((m) => m.parsed.subject === subject);
    const started = Date.now();
    await expect.poll(() => announced().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(9);

    // While sending: erase one, unsubscribe the other. Once each returns, nothing more.
    await cli(server.dataDir, ["erase", "--email", erased.email]);
    const erasedBefore = mail.to(erased.email).length;
    const response = await fetch(unsubscribeAt, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBeLessThan(400);
    const unsubscribedBefore = mail.to(unsubscribed.email).length;

    await expect.poll(() => announced().length, { timeout: 120_000 }).toBeGreaterThanOrEqual(100);
    const took = Date.now() - started;
    // Long enough for any second copy or late retry to arrive.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const perAddress = new Map<string, number>();
    for (const m of announced()) perAddress.set(m.to, (perAddress.get(m.to) ?? 0) + 1);
    expect(perAddress.size).toBe(100);
    expect([...perAddress.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(mail.to(erased.email)).toHaveLength(erasedBefore);
    expect(mail.to(unsubscribed.email)).toHaveLength(unsubscribedBefore);
    expect(perAddress.has(erased.email.toLowerCase())).toBe(false);
    expect(perAddress.has(unsubscribed.email.toLowerCase())).toBe(false);
    // `outbox` reports exactly what the server accepted.
    expect(await cli(server.dataDir, ["outbox"])).toMatch(
      new RegExp(`"${subject}" {2}queued \\S+: sent 100, waiting 0, failed 0`),
    );
    console.warn(`mail-trust: 100 announcement emails at 1.5 s each took ${took} ms`);
  } finally {
    await server.stop();
    await mail.close();
  }
});

test("a 550 recipient is tried once, and after erase neither the log nor DATA_DIR holds the address; DKIM signatures verify [~15 s]", async () => {
  test.setTimeout(180_000);
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicDer = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  const mail = await startMailCatcher();
  const server = await startMailSite(mail, {
    DKIM_DOMAIN: "clinic.test",
    DKIM_SELECTOR: "test2026",
    DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  });
  const refused = newRegistration("refused");
  try {
    const accepted = newRegistration("accepted");
    mail.refuseAddress(refused.email, 550);
    await registerAll([server], [accepted, refused]);
    const [message] = await mail.waitFor(accepted.email);
    const verified = await dkimVerify(message!.raw, {
      resolver: async (name: string, type: string) => {
        expect([name, type]).toEqual(["test2026._domainkey.clinic.test", "TXT"]);
        return [[`v=DKIM1; k=rsa; p=${publicDer}`]];
      },
    });
    expect(verified.results.map((r: { status: { result: string } }) => r.status.result)).toEqual([
      "pass",
    ]);

    // Each look starts the CLI: on a starved CPU, several seconds (20 s ran out once).
    await expect
      .poll(() => cli(server.dataDir, ["outbox"]), { timeout: 60_000 })
      .toMatch(/SMTP 550/);
    // Long enough for a retry, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const tries = mail.attempts.filter((a) => a === refused.email.toLowerCase()).length;
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThanOrEqual(2);

    await cli(server.dataDir, ["erase", "--email", refused.email]);
  } finally {
    await server.stop();
    await mail.close();
  }
  const output = server.output.join("\n");
  expect(output).toContain("SMTP 550");
  const needles = [refused.email, refused.email.toLowerCase(), refused.email.split("@")[0]!];
  for (const needle of needles) expect(output).not.toContain(needle);
  for (const name of readdirSync(server.dataDir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(server.dataDir, name);
    if (statSync(file).isDirectory()) continue;
    const bytes = readFileSync(file);
    for (const needle of needles) {
      expect(bytes.includes(Buffer.from(needle)), `${needle} in ${file}`).toBe(false);
    }
  }
});
