import { describe, expect, it } from "vitest";

import { buildEmail, type MailJob } from "./build-email.ts";
import { escapeHtml } from "../../app/content/emails.ts";
import { verifyToken } from "../shared/links.ts";

const key = "k".repeat(64);
const siteOrigin = "https://clinic.example";
const registration = {
  id: "0b6f2a4e-9d1c-4c1e-8f7a-2b3c4d5e6f70",
  name: '<script>alert(1)</script> =HYPERLINK("x")',
  email: "sam@example.co.uk",
  receivedAt: "2026-11-23T10:00:00.000Z",
  wantsUpdates: false,
};
const confirmation: MailJob = {
  outboxId: "11111111-1111-4111-8111-111111111111",
  topic: "confirmation",
  registration,
  announcement: null,
};
const announcement: MailJob = {
  outboxId: "22222222-2222-4222-8222-222222222222",
  topic: "announcement",
  registration,
  announcement: {
    subject: "We are open",
    body: "We are open from today.\n\nBook at <https://clinic.example> & call us.\r\nSecond line.",
  },
};

const options = { siteOrigin, linkKey: key };
/** The mail built for `job`, with the registration changed by `changes`: headers, both parts. */
function build(job: MailJob, changes: Partial<typeof registration> = {}) {
  const mail = buildEmail({ ...job, registration: { ...registration, ...changes } }, options);
  const headers = mail.headers as Record<string, string>;
  return { mail, headers, text: String(mail.text), html: String(mail.html) };
}
const verified = (url: string | undefined, purpose: "confirm" | "unsubscribe", at: Date) =>
  verifyToken(key, new URL(url ?? "").searchParams.get("token") ?? "", purpose, at);
const genuine = { ok: true, registrationId: registration.id };

describe("buildEmail", () => {
  it("builds the confirmation: both parts, a genuine 7-day link under SITE_URL, both unsubscribe headers", () => {
    const { mail, headers, text, html } = build(confirmation);
    expect(mail.to).toBe(registration.email);
    expect(mail.subject).toBe("Please confirm your email address for Meridian Men's Health");
    const confirmUrl = /https:\/\/\S+\/register-interest\/confirm\?token=\S+/.exec(text)?.[0];
    expect(confirmUrl?.startsWith(`${siteOrigin}/register-interest/confirm?token=`)).toBe(true);
    expect(verified(confirmUrl, "confirm", new Date("2026-11-30T09:59:59Z"))).toEqual(genuine);
    expect(text).toContain("Monday, 30 November 2026 at 10:00");
    expect(html).toContain(`href="${confirmUrl?.replaceAll("&", "&amp;")}"`);

    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = /^<(https:\/\/clinic\.example\/unsubscribe\?token=[^>]+)>$/.exec(
      headers["List-Unsubscribe"] ?? "",
    )?.[1];
    expect(verified(unsubscribe, "unsubscribe", new Date())).toEqual(genuine);
    expect(text).toContain(unsubscribe);
    expect(mail.messageId).toBe(`<${confirmation.outboxId}@clinic.example>`);
  });

  it("puts nothing the registrant typed but the address into a confirmation, which no one has confirmed yet", () => {
    const lure = "URGENT verify your account at https://evil.example/login";
    const { mail, text, html } = build(confirmation, { name: lure });
    for (const part of [text, html, String(mail.subject), JSON.stringify(mail.to)]) {
      expect(part).not.toMatch(/URGENT|evil\.example/);
    }
    expect(text).toMatch(/^Hello,\n/);
  });

  it.each([
    [false, "we will send you one email when we are registered", "news"],
    [true, "we will send you occasional news before we open, as you asked", "one email"],
  ])("promises what the person chose (news wanted: %s): %j", (wantsUpdates, promise, not) => {
    const { text } = build(confirmation, { wantsUpdates });
    expect(text).toContain(promise);
    expect(text).not.toContain(not);
  });

  it("frames an announcement: the staff's subject, paragraphs escaped in HTML, the same one-click headers", () => {
    const { mail, headers, text, html } = build(announcement);
    expect(mail.subject).toBe("We are open");
    expect(text).toContain("We are open from today.\n\nBook at <https://clinic.example>");
    expect(html).toContain(
      '<p style="margin:0 0 16px;">Book at &lt;https://clinic.example&gt; &amp; call us.<br>Second line.</p>',
    );
    // Everything a person or staff wrote is escaped in the HTML part, and plain in the text.
    expect(html).not.toContain("<script>");
    expect(html).toContain("Hello alert(1) =HYPERLINK(&quot;x&quot;),");
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-GB">/);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(text).toContain('Hello alert(1) =HYPERLINK("x"),');
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // The same row makes the same message (a resend after a crash is recognisable).
    expect(build(announcement).mail).toEqual(mail);
  });

  /** Every address or domain name in the text, as a mail client would find them to link. */
  const linkable = (text: string) =>
    text.match(/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+|(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}/gu) ?? [];

  // Once confirmed, the announcement greets the person by the name they gave: their words, never
  // a link. With no name left, the greeting is neutral and To holds the address alone.
  it.each([
    ["Sam Carter", "Sam Carter"],
    ['Dave "Admin" <root@evil.example> https://evil.example', 'Dave "Admin"'],
    // Shown right to left, this reads "https://evil.example".
    ["Sam \u202Eelpmaxe.live//:sptth", "Sam"],
    ["\u202Emoc.live@toor Sam\u202C Carter", "Sam Carter"],
    ["Sam ｅｖｉｌ．ｅｘａｍｐｌｅ www.evil.example evil.example/login", "Sam"],
    ["Sam mailto:root@evil.example javascript:alert(1) Carter", "Sam Carter"],
    ["Seán O'Brien-Smith", "Seán O'Brien-Smith"],
    ["J. R. R. Tolkien", "J. R. R. Tolkien"],
    ["محمد علي", "محمد علي"],
    ["李小龍", "李小龍"],
    ["https://evil.example", null],
    ["<root@evil.example>", null],
    ["\u202E \u202C", null],
    ["  ", null],
  ])("a typed name %j greets and addresses %j", (typed, shown) => {
    const { mail, text, html } = build(announcement, { name: typed });
    expect(text.slice(0, text.indexOf("\n") + 1)).toBe(`Hello ${shown ?? "there"},\n`);
    expect(html).toContain(`Hello ${escapeHtml(shown ?? "there")},`);
    expect(mail.to).toEqual(
      shown ? { name: shown, address: registration.email } : registration.email,
    );
    for (const part of [text, html, JSON.stringify(mail.to)]) {
      expect(part).not.toMatch(/evil|live|toor|\u202E|\u202C/);
    }
    // The only links in the text part are the clinic's own (the staff's body has one).
    expect(new Set(linkable(text))).toEqual(new Set(["clinic.example"]));
  });
});
