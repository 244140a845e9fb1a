// The words of People in the staff console (decision 135).
import { consentWordings } from "./registration.ts";

export const peopleCopy = {
  title: "People",
  intro:
    "Find a registration by its full email address, for example to answer a subject access request or an erasure request. There is no list of people: type the exact address the person gave.",
  findLabel: "Email address",
  findButton: "Find",
  missing: "No registration with that address.",
  exportTitle: "Export every registration",
  exportText: (perDay: number) =>
    `A spreadsheet file (CSV) of every registration, oldest first. Each export is recorded in the audit trail, and each manager can export ${String(perDay)} times in any 24 hours. Keep the file safe and delete it when you are done.`,
  exportLink: "Download all registrations (CSV)",
  recordTitle: "Registration",
  noRecord:
    "There is no registration to show here: it may have been erased. Look the address up again.",
  lookUp: "Look up an address",
  copyLinks: "Subject access copy",
  downloadLink: "Download as a file (JSON)",
  printLink: "Open a page to print",
  resendTitle: "Send the confirmation email again",
  resendText:
    "For someone who did not receive the email with the link that confirms their address. The same limits apply as on the website: one an hour, three a day.",
  resendButton: "Send the confirmation email again",
  resent: "The confirmation email is on its way.",
  eraseTitle: "Erase this person",
  eraseText:
    "This deletes every registration of this address and the emails sent to it, at once and for good. Only a record without the address stays, saying when it was erased.",
  eraseLabel: "Type the email address again to confirm",
  eraseButton: "Erase everything for this address",
  erasedTitle: "Erased",
  erased:
    "Everything stored for this address has been deleted. What remains is the record below, which holds no address.",
  printTitle: "Subject access copy",
  printIntro: (clinicName: string, at: string) =>
    `Everything ${clinicName} holds about this email address, as of ${at}.`,
  printHint:
    "Use your browser's Print command (Ctrl+P, or ⌘P on a Mac) to print this page or save it as a PDF.",
} as const;

export const recordLabels = {
  name: "Name",
  email: "Email address",
  phone: "Phone",
  message: "Message",
  receivedAt: "Registered",
  confirmedAt: "Confirmed the address",
  unsubscribedAt: "Unsubscribed",
  wantsUpdates: "Asked for news before we open",
  consent: "What they agreed to",
  emails: "Emails sent",
  spreadsheet: "Copy in the clinic's spreadsheet",
  id: "Reference",
} as const;

export const notGiven = "Not given";
export const never = "No";

export const emailTopics: Record<string, string> = {
  confirmation: "Confirmation email",
  announcement: "Announcement",
};

export const deliveryWords: Record<string, string> = {
  pending: "waiting to be sent",
  delivered: "sent",
  dead: "could not be delivered",
};

/** The consent wording of a stored version, or a plain note when it is not on record here. */
export function consentWordingOf(version: string): string {
  return Object.hasOwn(consentWordings, version)
    ? `“${consentWordings[version as keyof typeof consentWordings].text}”`
    : `Version ${version} of the consent wording (its text is not on record here).`;
}

/** "27 November 2026, 00:21 UTC". */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = date.toLocaleDateString("en-GB", { dateStyle: "long", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { timeStyle: "short", timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

export function erasureWords(e: {
  erasedAt: string;
  registrations: number;
  spreadsheetIds: string[];
}): string {
  const what = `${e.registrations} ${e.registrations === 1 ? "registration" : "registrations"} erased on ${dateTime(e.erasedAt)}.`;
  if (e.spreadsheetIds.length === 0) return what;
  return `${what} A copy had reached the clinic's spreadsheet: delete the ${e.spreadsheetIds.length === 1 ? "row" : "rows"} with id ${e.spreadsheetIds.join(", ")} there too.`;
}
