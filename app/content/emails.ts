/**
 * The words of every email the site sends (docs/decisions/088): the confirmation that
 * follows a registration (double opt-in), and the frame around an announcement staff
 * write. The server composes messages from these functions; it imports this module
 * and nothing else of app/. Each message has a plain-text part and an HTML part with
 * the same words. Every value put into HTML is escaped here.
 */

import { clinic as identity } from "./clinic.ts";

const clinic = identity.name;

export type EmailParts = { subject: string; text: string; html: string };

type Recipient = {
  /** The RFC 8058 link, also shown at the foot of every message. */
  unsubscribeUrl: string;
};

/**
 * No name: the confirmation goes to an address nobody has confirmed yet, so anything
 * typed into the form could be a stranger's words sent under the clinic's name
 * ("Hello URGENT verify your account at https://…"). It greets neutrally
 * (docs/decisions/103).
 */
export type ConfirmationEmail = Recipient & {
  confirmUrl: string;
  /** When the link stops working, for people: "Monday 30 November 2026". */
  expiresOn: string;
  /** Whether they ticked "Send me occasional news before we open". */
  wantsUpdates: boolean;
};

/** Announcements go only to confirmed addresses: the person's own name may be used (`nameForEmail`). */
export type AnnouncementEmail = Recipient & {
  name: string;
  subject: string;
  /** What staff wrote: plain text, paragraphs separated by blank lines. */
  body: string;
};

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** Paragraphs of plain text: split on blank lines, single line breaks kept. */
function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** A word a mail client could make a link of: an address, a URL, a scheme, a domain. */
const LINK_LIKE = /[@<>/\\]|^[a-z][a-z\d+.-]*:\S|[\p{L}\p{N}][.\u3002\uff61][\p{L}\p{N}]{2}/iu;

/**
 * The typed name as an email may show it (greeting, To display name), or null when
 * nothing sensible remains. A name is the person's words, never a link: URLs, addresses
 * and anything in angle brackets go, with invisible and direction-changing characters
 * that could disguise them (`Dave "Admin" <root@evil.example> https://evil.example`
 * becomes `Dave "Admin"`).
 */
export function nameForEmail(name: string): string | null {
  const words = name
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/<[^>]*>?/g, " ")
    .split(/\s+/)
    .filter((word) => word && !LINK_LIKE.test(word));
  const cleaned = words.join(" ");
  return /\p{L}/u.test(cleaned) ? cleaned : null;
}

const footer = {
  why: `You are receiving this because this address was used to register interest with ${clinic}.`,
  unsubscribe: "Unsubscribe from our emails",
  signOff: `The team at ${clinic}`,
};

/**
 * One accessible HTML document: a language, a title, one heading, paragraphs, links
 * whose text says where they go, dark text on white, no images and no layout tables.
 */
function htmlDocument(title: string, heading: string, inner: string, unsubscribeUrl: string) {
  const link = "color:#14532d;text-decoration:underline;";
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1f2933;font-family:Georgia,'Times New Roman',serif;font-size:17px;line-height:1.6;">
<div style="max-width:560px;margin:0 auto;overflow-wrap:anywhere;word-break:break-word;">
<p style="margin:0 0 24px;font-size:15px;color:#3e4c59;">${escapeHtml(clinic)}</p>
<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3;color:#102a1c;">${escapeHtml(heading)}</h1>
${inner.replaceAll("LINK_STYLE", link)}
<p style="margin:24px 0 0;">${escapeHtml(footer.signOff)}</p>
<hr style="margin:32px 0 16px;border:0;border-top:1px solid #d9e2ec;">
<p style="margin:0 0 8px;font-size:14px;color:#3e4c59;">${escapeHtml(footer.why)}</p>
<p style="margin:0;font-size:14px;"><a href="${escapeHtml(unsubscribeUrl)}" style="LINK_STYLE">${escapeHtml(footer.unsubscribe)}</a></p>
</div>
</body>
</html>
`.replaceAll("LINK_STYLE", link);
}

function textFooter(unsubscribeUrl: string): string {
  return `${footer.signOff}\n\n--\n${footer.why}\n${footer.unsubscribe}: ${unsubscribeUrl}\n`;
}

export function confirmationEmail(email: ConfirmationEmail): EmailParts {
  const subject = `Please confirm your email address for ${clinic}`;
  const heading = "Please confirm your email address";
  const lines = {
    hello: "Hello,",
    thanks: `Thank you for registering your interest in ${clinic}. To confirm that this is your address, please open this link:`,
    button: "Confirm my email address",
    expiry: `The link works until ${email.expiresOn}. ${
      email.wantsUpdates
        ? "Once you have confirmed, we will send you occasional news before we open, as you asked, and an email when we are registered with the Care Quality Commission and open. You can stop them at any time with the link at the foot of each email."
        : "Once you have confirmed, we will send you one email when we are registered with the Care Quality Commission and open."
    }`,
    notYou:
      "If you did not register, you can ignore this email: we will not write to you again, and your details will be deleted within 30 days.",
  };
  const text = [
    lines.hello,
    "",
    lines.thanks,
    "",
    email.confirmUrl,
    "",
    lines.expiry,
    "",
    lines.notYou,
    "",
    textFooter(email.unsubscribeUrl),
  ].join("\n");
  const inner = [
    `<p style="margin:0 0 16px;">${escapeHtml(lines.hello)}</p>`,
    `<p style="margin:0 0 16px;">${escapeHtml(lines.thanks)}</p>`,
    `<p style="margin:0 0 16px;"><a href="${escapeHtml(email.confirmUrl)}" style="display:inline-block;padding:12px 20px;background:#14532d;color:#ffffff;text-decoration:none;border-radius:6px;font-family:Arial,sans-serif;font-size:16px;">${escapeHtml(lines.button)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:15px;">If the button does not work, copy this address into your browser: <a href="${escapeHtml(email.confirmUrl)}" style="LINK_STYLE">${escapeHtml(email.confirmUrl)}</a></p>`,
    `<p style="margin:0 0 16px;">${escapeHtml(lines.expiry)}</p>`,
    `<p style="margin:0 0 16px;">${escapeHtml(lines.notYou)}</p>`,
  ].join("\n");
  return { subject, text, html: htmlDocument(subject, heading, inner, email.unsubscribeUrl) };
}

export function announcementEmail(email: AnnouncementEmail): EmailParts {
  const hello = `Hello ${nameForEmail(email.name) ?? "there"},`;
  const body = paragraphs(email.body);
  const text = [hello, "", ...body.flatMap((p) => [p, ""]), textFooter(email.unsubscribeUrl)].join(
    "\n",
  );
  const inner = [hello, ...body]
    .map((p) => `<p style="margin:0 0 16px;">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
  return {
    subject: email.subject,
    text,
    html: htmlDocument(email.subject, email.subject, inner, email.unsubscribeUrl),
  };
}
