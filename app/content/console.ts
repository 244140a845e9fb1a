/**
 * The words of the staff console (docs/decisions/133): its navigation, and the email
 * that carries an enrolment link. The server imports this module for that email.
 */
import { clinic } from "./clinic.ts";
import { escapeHtml } from "./emails.ts";

export const consoleName = "Staff console";

/** The console's navigation; `managers` entries are shown to managers only. */
export const consoleNav: { to: string; label: string; managers?: true }[] = [
  { to: "/console", label: "Overview" },
  { to: "/console/people", label: "People", managers: true },
  { to: "/console/staff", label: "Staff", managers: true },
  { to: "/console/announcements", label: "Announcements", managers: true },
  { to: "/console/audit", label: "Audit trail", managers: true },
  { to: "/console/passkeys", label: "My passkeys" },
];

export const roleLabels = { viewer: "Viewer", manager: "Manager" } as const;

/** What each action of the audit trail means, in words. Unknown actions show as stored. */
export const auditActions: Record<string, string> = {
  "signed-in": "Signed in",
  "sign-in-failed": "Failed sign-in",
  "signed-out": "Signed out",
  enrolled: "Enrolled a passkey from an invite",
  "passkey-added": "Added a passkey",
  "staff-invited": "Invited a staff member",
  "staff-role-changed": "Changed a staff member's role",
  "staff-removed": "Removed a staff member",
  "person-looked-up": "Looked up an address",
  "person-viewed": "Viewed a person's registration",
  "copy-printed": "Opened a subject access copy to print",
  "copy-downloaded": "Downloaded a subject access copy",
  "person-erased": "Erased a person",
  "erase-refused": "Erase refused: the retyped address did not match",
  "confirmation-resent": "Re-sent a confirmation email",
  "confirmation-refused": "Re-send of a confirmation email refused",
  "registrations-exported": "Exported every registration (CSV)",
  "announcement-composed": "Wrote an announcement",
  "announcement-edited": "Changed an announcement",
  "announcement-submitted": "Submitted an announcement for approval",
  "announcement-reopened": "Took an announcement back to draft",
  "announcement-approved": "Approved an announcement",
  "announcement-test-sent": "Sent a test of an announcement to themselves",
  "announcement-sent": "Sent an announcement",
  "announcement-withdrawn": "Withdrew an announcement",
};

/** Announcements (docs/decisions/136): where each stands, and who receives it. */
export const announcementStates = {
  draft: "Draft",
  submitted: "Waiting for approval",
  approved: "Approved, not yet sent",
  sending: "Sending",
  sent: "Sent",
  withdrawn: "Withdrawn",
} as const;

export const announcementAudiences = {
  all: "Everyone who confirmed their address",
  updates: "Only those who asked for news before we open",
} as const;

/**
 * The warning shown, and printed by the CLI, when an announcement names a prescription-only
 * medicine or a price; it must be acknowledged before the announcement is submitted.
 */
export const announcementWarningWords = {
  title: "Check the wording: this may advertise a prescription-only medicine",
  text: "UK law does not allow prescription-only medicines to be advertised to the public: regulation 284 of the Human Medicines Regulations 2012, enforced by the MHRA, and rule 12.12 of the CAP Code, enforced by the Advertising Standards Authority (ASA). An email to the waiting list counts as advertising, and the ASA has ruled against a UK men's health clinic for emails like it. Naming a medicine, or the price of a treatment, can promote that medicine. Describe the service instead (the assessment, the blood tests, the doctors), or ask the lead doctor to confirm the wording is information rather than promotion.",
  found: ({ medicines, prices }: { medicines: string[]; prices: string[] }) =>
    [
      medicines.length > 0 ? `Medicines named: ${medicines.join(", ")}.` : "",
      prices.length > 0 ? `Prices: ${prices.join(", ")}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  acknowledge: "I have read this warning and the wording has been checked",
};

export function staffInviteEmail(invite: { link: string; role: string; expiresAt: Date }) {
  const subject = `Your invitation to the ${clinic.name} staff console`;
  const until = invite.expiresAt.toUTCString();
  const text = `You have been invited to the ${clinic.name} staff console as a ${invite.role}.

Open this link on the device you will use, and create a passkey (your fingerprint, face or device PIN):

${invite.link}

The link works once, until ${until}. If you did not expect this email, ignore it.
`;
  const html = `<p>You have been invited to the ${escapeHtml(clinic.name)} staff console as a ${escapeHtml(invite.role)}.</p>
<p>Open this link on the device you will use, and create a passkey (your fingerprint, face or device PIN):</p>
<p><a href="${escapeHtml(invite.link)}">${escapeHtml(invite.link)}</a></p>
<p>The link works once, until ${escapeHtml(until)}. If you did not expect this email, ignore it.</p>
`;
  return { subject, text, html };
}

/** The overview page (docs/decisions/134): counts only, in a practice manager's words. */
export const overviewCopy = {
  intro:
    "The waiting list at a glance. Only counts are shown here, never a person's name or address. Days are UK days.",
  totalsHeading: "The list today",
  totals: {
    registered: "Registered",
    confirmed: "Confirmed their email",
    unconfirmed: "Not yet confirmed",
    unsubscribed: "Unsubscribed",
    erased: "Erased on request",
    askedForNews: "Asked for news before launch",
  },
  rate: (percent: string) => `${percent} of registrations have confirmed their email address.`,
  noRate: "No registrations yet, so no confirmation rate.",
  daysHeading: "Registrations per day, last 30 days",
  weeksHeading: "Registrations per week, last 12 weeks",
  chartNote:
    "The last bar, in brown, is still counting. The same numbers are in the table below the chart.",
  highest: (count: number, when: string) =>
    count === 0 ? "No registrations in this period." : `Busiest: ${count} on ${when}.`,
  dayColumn: "Day",
  weekColumn: "Week starting",
  countColumn: "Registrations",
  sourcesHeading: "Where registrations came from",
  sourcesNote:
    "Recorded only when the visitor allowed analytics in the cookie banner. Otherwise the registration counts as not recorded.",
  sourceTables: {
    source: { caption: "Campaign source (utm_source)", none: "No campaign tag" },
    medium: { caption: "Campaign medium (utm_medium)", none: "No campaign tag" },
    campaign: { caption: "Campaign name (utm_campaign)", none: "No campaign tag" },
    referrer: { caption: "Referring website", none: "None (typed in, bookmarked or an app)" },
  },
  valueColumn: "Value",
  others: "All other values",
  notRecorded: "Not recorded",
  mailHeading: "Email",
  mail: {
    queued: "Waiting to be sent",
    sent: "Sent",
    failed: "Could not be delivered",
    suppressed: "Addresses we no longer email (refused by their mail server)",
  },
  failuresCaption: "Emails that could not be delivered, by the mail server's reply",
  replyColumn: "Reply",
  replies: {
    "421": "421: the mail server was busy or closing",
    "450": "450: the mailbox was unavailable for now",
    "451": "451: the mail server had a problem",
    "452": "452: the mail server was out of space",
    "550": "550: no such mailbox, or the message was refused",
    "551": "551: the address has moved",
    "552": "552: the mailbox is full",
    "553": "553: the address is not valid",
    "554": "554: refused, often as spam",
    none: "No reply: the mail server could not be reached",
  } as Record<string, string>,
  reply: (code: string) => `${code}: another reply`,
  noFailures: "Every email so far was delivered or is waiting to be sent.",
  spreadsheetHeading: "Spreadsheet",
  spreadsheet: {
    waiting: "Waiting to be added",
    oldestWaiting: "Waiting since",
    failed: "Could not be added",
    oldestFailed: "Oldest that could not be added",
    nothingWaiting: "Nothing waiting",
    nothingFailed: "Nothing failed",
  },
  spreadsheetFine: "Nothing is failing.",
};
