import type { OutgoingMail } from "./transport.ts";
import { announcementEmail, confirmationEmail, nameForEmail } from "../../app/content/emails.ts";
import { confirmExpiry, confirmToken, linkUrl, unsubscribeToken } from "../shared/links.ts";

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

const timeForPeople = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** The Message-ID is the outbox row's, so a resend after a crash is the same message. */
export function buildEmail(
  job: MailJob,
  options: { siteOrigin: string; linkKey: string },
): OutgoingMail {
  const { registration, announcement } = job;
  const link = (purpose: "confirm" | "unsubscribe", token: string) =>
    linkUrl(options.siteOrigin, purpose, token);
  const unsubscribeUrl = link("unsubscribe", unsubscribeToken(options.linkKey, registration.id));
  const issuedAt = new Date(registration.receivedAt);
  let parts;
  if (job.topic === "confirmation") {
    parts = confirmationEmail({
      confirmUrl: link("confirm", confirmToken(options.linkKey, registration.id, issuedAt)),
      expiresOn: timeForPeople.format(confirmExpiry(issuedAt)),
      unsubscribeUrl,
      wantsUpdates: registration.wantsUpdates,
    });
  } else if (announcement) {
    parts = announcementEmail({ name: registration.name, ...announcement, unsubscribeUrl });
  } else {
    throw new Error(`announcement ${job.outboxId} has no text`);
  }
  // Nothing typed but the address goes into an unconfirmed one, not even a name (decision 130).
  const name = job.topic === "announcement" ? nameForEmail(registration.name) : null;
  return {
    outboxId: job.outboxId,
    to: name ? { name, address: registration.email } : registration.email,
    ...parts,
    messageId: `<${job.outboxId}@${new URL(options.siteOrigin).hostname}>`,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
