// Every email's words, as plain text and HTML alike: the confirmation (double opt-in) and the
// frame of an announcement staff write. server/mail/build-email.ts builds messages from these.
import { clinic as identity } from "./clinic.ts";

const clinic = identity.name;

/** No name: the address is unconfirmed, so a typed name could be a stranger's words in our mail. */
type ConfirmationEmail = {
  confirmUrl: string;
  /** For people: "Monday, 30 November 2026 at 10:00". */
  expiresOn: string;
  wantsUpdates: boolean;
  unsubscribeUrl: string;
};

/** Announcements go only to confirmed addresses: the person's own name may be used. */
type AnnouncementEmail = {
  name: string;
  subject: string;
  /** Plain text, paragraphs separated by blank lines. */
  body: string;
  unsubscribeUrl: string;
};

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** Split on blank lines; single line breaks kept. */
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
 * The typed name as an email may show it, or null: never a link, nor the invisible characters
 * that could disguise one (`Dave "Admin" <root@evil.example>` becomes `Dave "Admin"`).
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

const linkStyle = "color:#14532d;text-decoration:underline;";

/** Accessible: a language, a title, one heading, links that say where they go, no images or layout tables. */
function htmlDocument(title: string, heading: string, inner: string, unsubscribeUrl: string) {
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
${inner}
<p style="margin:24px 0 0;">${escapeHtml(footer.signOff)}</p>
<hr style="margin:32px 0 16px;border:0;border-top:1px solid #d9e2ec;">
<p style="margin:0 0 8px;font-size:14px;color:#3e4c59;">${escapeHtml(footer.why)}</p>
<p style="margin:0;font-size:14px;"><a href="${escapeHtml(unsubscribeUrl)}" style="${linkStyle}">${escapeHtml(footer.unsubscribe)}</a></p>
</div>
</body>
</html>
`;
}

function textFooter(unsubscribeUrl: string): string {
  return `${footer.signOff}\n\n--\n${footer.why}\n${footer.unsubscribe}: ${unsubscribeUrl}\n`;
}

const paragraph = (html: string) => `<p style="margin:0 0 16px;">${html}</p>`;

export function confirmationEmail(email: ConfirmationEmail) {
  const subject = `Please confirm your email address for ${clinic}`;
  const hello = "Hello,";
  const thanks = `Thank you for registering your interest in ${clinic}. To confirm that this is your address, please open this link:`;
  const expiry = `The link works until ${email.expiresOn}. ${
    email.wantsUpdates
      ? "Once you have confirmed, we will send you occasional news before we open, as you asked, and an email when we are registered with the Care Quality Commission and open. You can stop them at any time with the link at the foot of each email."
      : "Once you have confirmed, we will send you one email when we are registered with the Care Quality Commission and open."
  }`;
  const notYou =
    "If you did not register, you can ignore this email: we will not write to you again, and your details will be deleted within 30 days.";
  const url = escapeHtml(email.confirmUrl);
  const inner = [
    paragraph(escapeHtml(hello)),
    paragraph(escapeHtml(thanks)),
    paragraph(
      `<a href="${url}" style="display:inline-block;padding:12px 20px;background:#14532d;color:#ffffff;text-decoration:none;border-radius:6px;font-family:Arial,sans-serif;font-size:16px;">Confirm my email address</a>`,
    ),
    `<p style="margin:0 0 16px;font-size:15px;">If the button does not work, copy this address into your browser: <a href="${url}" style="${linkStyle}">${url}</a></p>`,
    paragraph(escapeHtml(expiry)),
    paragraph(escapeHtml(notYou)),
  ].join("\n");
  return {
    subject,
    text: [hello, thanks, email.confirmUrl, expiry, notYou, textFooter(email.unsubscribeUrl)].join(
      "\n\n",
    ),
    html: htmlDocument(subject, "Please confirm your email address", inner, email.unsubscribeUrl),
  };
}

export function announcementEmail(email: AnnouncementEmail) {
  const lines = [`Hello ${nameForEmail(email.name) ?? "there"},`, ...paragraphs(email.body)];
  return {
    subject: email.subject,
    text: [...lines, textFooter(email.unsubscribeUrl)].join("\n\n"),
    html: htmlDocument(
      email.subject,
      email.subject,
      lines.map((p) => paragraph(escapeHtml(p).replace(/\n/g, "<br>"))).join("\n"),
      email.unsubscribeUrl,
    ),
  };
}
