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
