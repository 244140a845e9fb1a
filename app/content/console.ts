/**
 * The words of the staff console (docs/decisions/133), and the email
 * that carries an enrolment link. The server imports this module for that email.
 */
import { clinic } from "./clinic.ts";
import { escapeHtml } from "./emails.ts";

export const consoleName = "Staff console";

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
  "staff-reset": "Reset a staff member: ended their sessions and passkeys, and invited them again",
  "staff-change-requested": "Asked a second manager to agree to a staff change",
  "staff-change-agreed": "Agreed to a staff change another manager asked for",
  "staff-change-cancelled": "Cancelled a staff change they had asked for",
  "enrol-refused": "Refused an invitation for the address of someone already on the staff",
  "person-looked-up": "Looked up an address",
  "person-viewed": "Viewed a person's registration",
  "copy-printed": "Opened a subject access copy to print",
  "copy-downloaded": "Downloaded a subject access copy",
  "person-erased": "Erased a person",
  "erase-refused": "Erase refused: the retyped address did not match",
  "confirmation-resent": "Re-sent a confirmation email",
  "confirmation-refused": "Re-send of a confirmation email refused",
  "registrations-exported": "Exported every registration (CSV)",
  "export-refused": "Export refused: the daily limit was reached",
  "look-up-refused": "Look-up refused: the hourly limit was reached",
  "request-refused": "Request refused (see the reason)",
  "announcement-composed": "Wrote an announcement",
  "announcement-edited": "Changed an announcement",
  "announcement-submitted": "Submitted an announcement for approval",
  "announcement-reopened": "Took an announcement back to draft",
  "announcement-approved": "Approved an announcement",
  "announcement-test-sent": "Sent a test of an announcement to themselves",
  "announcement-sent": "Sent an announcement",
  "announcement-withdrawn": "Withdrew an announcement",
  "confirmed-with-passkey": "Confirmed it was them with a passkey",
  "confirm-failed": "Failed to confirm it was them with a passkey",
  "passkey-removed": "Removed a passkey",
  "sessions-ended": "Ended sessions",
};

/** How a passkey reaches the browser, in words ("My passkeys"); WebAuthn's transport names. */
export const passkeyTransports: Record<string, string> = {
  internal: "Built into a device",
  hybrid: "Phone or tablet",
  usb: "Security key (USB)",
  nfc: "Security key (NFC)",
  ble: "Security key (Bluetooth)",
  "smart-card": "Smart card",
};

/**
 * The staff page (docs/decisions/133, 175): who is on the staff, invitations not yet used,
 * and changes waiting for a second manager's agreement.
 */
export const staffCopy = {
  intro:
    "Any change that adds or removes a manager needs a second manager to agree, so that no one manager can approve their own announcements. The change happens when they agree.",
  waitingHeading: "Waiting for a second manager",
  waitingNone: "No staff change is waiting.",
  change: (r: {
    change: "invite" | "role" | "remove" | "reset";
    email: string;
    role: string | null;
  }) =>
    ({
      invite: `Invite ${r.email} as a ${r.role ?? "viewer"}`,
      role: `Make ${r.email} a ${r.role ?? "viewer"}`,
      remove: `Remove ${r.email}`,
      reset: `Reset ${r.email}: end their sessions and passkeys, and invite them again`,
    })[r.change],
  askedBy: (who: string, when: string, byYou: boolean) =>
    byYou ? `You asked on ${when}.` : `${who} asked on ${when}.`,
  cannotAgree: (why: "asked" | "reset" | "group") =>
    ({
      asked: "Another manager must agree.",
      reset: "Another manager must agree to your own reset.",
      group:
        "You cannot agree to this one: one of you, or a manager before you, made the other a manager alone.",
    })[why],
  agree: "Agree",
  cancel: "Cancel",
  peopleHeading: "People",
  you: " (you)",
  madeManagerAlone: (by: string) =>
    `Made a manager by ${by} alone, when they were the only manager: they cannot approve ${by}'s announcements.`,
  roleLabel: (email: string) => `Role of ${email}`,
  changeRole: "Change role",
  remove: "Remove",
  reset: "Reset",
  resetHint:
    "Reset is for a lost passkey: it signs the person out everywhere, deletes their passkeys and invites them again.",
  invitationsHeading: "Invitations not yet used",
  invitationsNone: "None.",
  invitation: (i: {
    role: string;
    createdAt: string;
    expiresAt: string;
    by: string;
    reset: boolean;
  }) =>
    i.reset
      ? `${i.role}; reset on ${i.createdAt} by ${i.by}, waiting for enrolment until ${i.expiresAt}.`
      : `${i.role}; invited on ${i.createdAt} by ${i.by}, waiting for enrolment until ${i.expiresAt}.`,
  commandLine: "the command line",
  inviteHeading: "Invite someone",
  inviteIntro:
    "A viewer sees only figures. A manager also looks people up, exports, erases, sends announcements and manages staff. The link works once, for 24 hours. Someone already on the staff is never invited: reset them instead.",
  done: {
    changed: "The role was changed.",
    removed: "The person was removed: their sessions have ended.",
    cancelled: "The change was cancelled.",
    agreed: "You agreed, and the change has been made.",
    pending:
      "Asked: nothing has changed yet. The change happens when another manager agrees on this page.",
  },
  invited: (email: string, reset: boolean) =>
    reset
      ? `${email} was reset: their sessions and passkeys have ended, and a new invitation was made.`
      : `Invitation for ${email} created.`,
  emailed: (email: string, until: string) =>
    `The link was emailed to ${email} only, and is not shown here. It works once, until ${until} UTC.`,
  showLink: (until: string) =>
    `Send them this link yourself: it is shown only this once, and works once, until ${until} UTC.`,
  linkWarning:
    "Whoever opens this link first becomes this person in the console. Give it only to them, by a way only they can read.",
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

/** A lone manager's approval of their own words (decision 176), said wherever it shows. */
export const approvedAloneWords = "Approved by its author alone";

export const announcementAudiences = {
  all: "Everyone who confirmed their address",
  updates: "Only those who asked for news before we open",
} as const;

/**
 * The warning shown, and printed by the CLI, when an announcement names a prescription-only
 * medicine or a price; its author acknowledges it to submit, its approver to approve.
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
  acknowledgeApproval: "I have read this warning and checked the wording before approving",
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
  staffWaiting: (n: number) =>
    `${n === 1 ? "A staff change is" : `${n} staff changes are`} waiting for a second manager to agree: see Staff.`,
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
