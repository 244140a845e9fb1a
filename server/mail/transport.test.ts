import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { describe, expect, it, onTestFinished, vi } from "vitest";

import { buildEmail } from "./build-email.ts";
import { createMailer } from "./transport.ts";
import { startMailCatcher } from "../../scripts/lib/mail-catcher.ts";
import { createLogger } from "../logger.ts";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const dkimEnv = {
  DKIM_DOMAIN: "clinic.test",
  DKIM_SELECTOR: "test2026",
  DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
};
const publicDer = publicKey.export({ type: "spki", format: "der" }).toString("base64");
const logger = createLogger("silent");
const mailEnv = {
  MAIL_FROM: "Clinic <hello@clinic.test>",
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "clinic-mail-")),
};

type Verified = {
  results: Array<{ status: { result: string }; signingHeaders?: { keys: string } }>;
};

const resolver = async () => [[`v=DKIM1; k=rsa; p=${publicDer}`]];
/** The DKIM verdicts on `raw`, and the header names its first signature covers. */
async function verify(raw: Buffer | string) {
  const { results } = (await dkimVerify(raw, { resolver })) as Verified;
  const signed = results[0]?.signingHeaders?.keys ?? "";
  const keys = signed.split(":").map((k) => k.trim().toLowerCase());
  return { verdicts: results.map((r) => r.status.result), keys };
}

/** The message with one header line's value changed in transit (the body left alone). */
function tampered(raw: Buffer, from: RegExp, to: string): string {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const head = text.slice(0, end).replace(from, to);
  expect(head).not.toBe(text.slice(0, end));
  return head + text.slice(end);
}

describe("the SMTP transport", () => {
  it("signs both one-click headers (RFC 8058 section 4) and those it signed before; changing either breaks the signature", async () => {
    const catcher = await startMailCatcher();
    const mailer = createMailer({ SMTP_URL: catcher.url, ...mailEnv, ...dkimEnv }, logger);
    onTestFinished(async () => {
      mailer.close();
      await catcher.close();
    });
    const registration = {
      id: "0b6f2a4e-9d1c-4c1e-8f7a-2b3c4d5e6f70",
      name: "Sam",
      email: "sam@example.co.uk",
      receivedAt: "2026-11-23T10:00:00.000Z",
      wantsUpdates: false,
    };
    const outboxId = "33333333-3333-4333-8333-333333333333";
    const job = { outboxId, topic: "confirmation", registration, announcement: null } as const;
    const links = { siteOrigin: "https://clinic.test", linkKey: "k".repeat(64) };
    await mailer.send(buildEmail(job, links));
    const raw = (await catcher.waitFor("sam@example.co.uk"))[0]!.raw;

    const { verdicts, keys } = await verify(raw);
    expect(verdicts).toEqual(["pass"]);
    expect(keys).toEqual(
      expect.arrayContaining([
        "from",
        "subject",
        "date",
        "message-id",
        "to",
        "mime-version",
        "content-type",
        "list-unsubscribe",
        "list-unsubscribe-post",
      ]),
    );

    for (const [header, from, to] of [
      ["List-Unsubscribe-Post", /List-Unsubscribe=One-Click/, "List-Unsubscribe=Other"],
      ["List-Unsubscribe", /unsubscribe\?token=u\./, "unsubscribe?token=x."],
    ] as const) {
      const changed = await verify(tampered(raw, from, to));
      expect(changed.verdicts, `${header} changed in transit`).toEqual(["fail"]);
    }
  });

  it("warns at start when SMTP_URL is set and DKIM is not: the launch email would go out unsigned", () => {
    const warnings = (env: Parameters<typeof createMailer>[0]) => {
      const spied = createLogger("silent");
      const warn = vi.spyOn(spied, "warn");
      createMailer(env, spied).close();
      return warn.mock.calls.map((call) => String(call.at(-1)));
    };
    const smtp = { SMTP_URL: "smtp://127.0.0.1:1", ...mailEnv };
    expect(warnings(smtp)).toEqual([
      expect.stringMatching(/^DKIM is not configured .* go out unsigned/),
    ]);
    expect(warnings({ ...smtp, ...dkimEnv })).toEqual([]);
    // Without SMTP_URL each email is a file under DATA_DIR/mail: nobody receives it.
    expect(warnings({ DATA_DIR: mailEnv.DATA_DIR })).toEqual([]);
  });
});
