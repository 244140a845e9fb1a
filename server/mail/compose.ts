import type { OutgoingMail } from "./transport.ts";
import { announcementEmail, confirmationEmail, nameForEmail } from "../../app/content/emails.ts";
import {
  CONFIRM_LINK_DAYS,
  confirmToken,
  linkUrl,
  unsubscribeToken,
} from "../registrations/links.ts";

/** A claimed mail row with what its message needs (server/outbox/store.ts). */
export type MailJob = {
  outboxId: string;
  topic: "confirmation" | "announcement";
  registration: {
    id: string;
    name: string;
    email: string;
    receivedAt: string;
    wantsUpdates: boolean;
  };
  announcement: { subject: string; body: string } | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Monday 30 November 2026 at 10:00", in the UK's time zone. */
function timeForPeople(at: Date): string {
  return new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/London",
  }).format(at);
}

/**
 * Builds one message from the content module (app/content/emails.ts), with links under
 * `siteOrigin` as the server reads it now. Every message carries RFC 8058's one-click
 * unsubscribe (List-Unsubscribe with an https URL, List-Unsubscribe-Post), and a
 * Message-ID made from its outbox row, so a resend after a crash is recognisably the
 * same message.
 */
export function composeMail(
  job: MailJob,
  options: { siteOrigin: string; linkKey: string },
): OutgoingMail {
  const { registration } = job;
  const unsubscribeUrl = linkUrl(
    options.siteOrigin,
    "unsubscribe",
    unsubscribeToken(options.linkKey, registration.id),
  );
  let parts;
  if (job.topic === "confirmation") {
    const issuedAt = new Date(registration.receivedAt);
    parts = confirmationEmail({
      confirmUrl: linkUrl(
        options.siteOrigin,
        "confirm",
        confirmToken(options.linkKey, registration.id, issuedAt),
      ),
      expiresOn: timeForPeople(new Date(issuedAt.getTime() + CONFIRM_LINK_DAYS * DAY_MS)),
      unsubscribeUrl,
      wantsUpdates: registration.wantsUpdates,
    });
  } else {
    if (!job.announcement) throw new Error(`announcement ${job.outboxId} has no text`);
    parts = announcementEmail({
      name: registration.name,
      subject: job.announcement.subject,
      body: job.announcement.body,
      unsubscribeUrl,
    });
  }
  // A confirmation carries nothing the registrant typed but the address, not even as
  // the To header's display name; an announcement (confirmed addresses only) may.
  const name = job.topic === "announcement" ? nameForEmail(registration.name) : null;
  return {
    outboxId: job.outboxId,
    to: name ? { name, address: registration.email } : registration.email,
    subject: parts.subject,
    text: parts.text,
    html: parts.html,
    messageId: `<${job.outboxId}@${new URL(options.siteOrigin).hostname}>`,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
