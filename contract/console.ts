import type { RouterContext } from "react-router";

import type { ErasureRecord, StoredRegistration } from "./registrations.ts";

export type { ErasureRecord };

/**
 * The staff console's contract (docs/decisions/133): who may open which console route,
 * and what the console listener hands to console routes through React Router context
 * (`consoleServicesContext`). The public listener never sets it.
 */

export type StaffRole = "viewer" | "manager";

export const STAFF_ROLES: readonly StaffRole[] = ["viewer", "manager"];

/** Who may use a route: anyone (the sign-in ceremony), any staff member, or managers. */
export type Access = "public" | StaffRole;

/**
 * Every console route, by its path, with who may load it (`view`) and who may post to it
 * (`act`; absent: it has no action). Each route module passes its entry to requireStaff,
 * and tests/e2e/console-access.spec.ts tries every row with no session, a viewer's and a
 * manager's. A new console page adds its row here.
 */
export const consoleRoutes = {
  "/console": { view: "viewer" },
  "/console/sign-in": { view: "public" },
  "/console/enrol": { view: "public" },
  "/console/passkey": { act: "public" },
  "/console/sign-out": { act: "viewer" },
  "/console/passkeys": { view: "viewer" },
  "/console/staff": { view: "manager", act: "manager" },
  "/console/audit": { view: "manager" },
  "/console/people": { view: "manager", act: "manager" },
  "/console/people/record": { view: "manager", act: "manager" },
  "/console/people/copy": { view: "manager" },
  "/console/people/download": { view: "manager" },
  "/console/people/export": { view: "manager" },
  "/console/announcements": { view: "manager", act: "manager" },
  "/console/announcements/draft": { view: "manager", act: "manager" },
} as const satisfies Record<string, { view?: Access; act?: Access }>;

export type ConsolePath = keyof typeof consoleRoutes;

export type StaffMember = { id: string; email: string; role: StaffRole };

export type StaffListing = StaffMember & {
  createdAt: string;
  passkeys: number;
  lastSignInAt: string | null;
};

export type PasskeyListing = { createdAt: string; lastUsedAt: string | null };

export type AuditEntry = {
  at: string;
  /** The staff member's address, or null when none is known (a failed sign-in). */
  staff: string | null;
  action: string;
  registrationId: string | null;
  detail: Record<string, string | number | boolean | null>;
};

/** A value of one source column and how many registrations had it; null: recorded, but none. */
export type SourceCount = { value: string | null; count: number };

/** One attribution column: its most frequent values, the rest, and those never recorded. */
export type SourceBreakdown = { top: SourceCount[]; others: number; notRecorded: number };

/**
 * The waiting list at a glance (docs/decisions/134): aggregates only, never a person.
 * Days are the clinic's (Europe/London) calendar days; weeks start on Monday.
 */
export type WaitingListOverview = {
  /** Today's date in London, YYYY-MM-DD. */
  today: string;
  /** The last 30 days, oldest first, today last. */
  days: { date: string; count: number }[];
  /** The last 12 weeks by their Monday, oldest first, this week (so far) last. */
  weeks: { monday: string; count: number }[];
  totals: {
    registered: number;
    confirmed: number;
    unconfirmed: number;
    unsubscribed: number;
    erased: number;
    askedForNews: number;
  };
  /** Confirmed of registered, 0 to 1; null with no registrations. */
  confirmationRate: number | null;
  sources: Record<"source" | "medium" | "campaign" | "referrer", SourceBreakdown>;
  mail: {
    queued: number;
    sent: number;
    failed: number;
    /** Failed for good, by the mail server's reply code ("550"), or "none" when it never answered. */
    failedByReply: { reply: string; count: number }[];
    /** Addresses no mail goes to again: a mail server refused them for good. */
    suppressed: number;
  };
  spreadsheet: {
    waiting: number;
    oldestWaitingAt: string | null;
    failed: number;
    oldestFailedAt: string | null;
  };
};

export type DeliveryState = {
  status: "pending" | "delivered" | "dead";
  attempts: number;
  deliveredAt: string | null;
};

/** One registration with what was sent for it: the subject-access copy's unit. */
export type RegistrationWithDelivery = StoredRegistration & {
  /** To the clinic's spreadsheet; null when that was off. */
  delivery: DeliveryState | null;
  /** Oldest first. */
  emails: Array<
    DeliveryState & {
      topic: "registration" | "status" | "confirmation" | "announcement";
      announcementId: string | null;
    }
  >;
};

/** Everything stored for one address, as `registrations -- show --email` prints it. */
export type SubjectAccessCopy = {
  registrations: RegistrationWithDelivery[];
  erasures: ErasureRecord[];
};

/**
 * People (managers only; docs/decisions/135), by registration id once found: each call
 * writes its audit line with that id, never the address.
 */
export type PeopleOperations = {
  /** By the exact address (trimmed, any letter case); the newest registration's id. */
  find(email: string): Promise<{ id: string } | { id: null; erasures: ErasureRecord[] } | Refusal>;
  /** The address's copy, found from one of its registration ids; null when none is stored. */
  view(id: string, purpose: "view" | "print" | "download"): Promise<SubjectAccessCopy | null>;
  /** Only when `retyped` is the address of registration `id`. */
  erase(id: string, retyped: string): Promise<{ ok: true; erasures: ErasureRecord[] } | Refusal>;
  resendConfirmation(id: string): Promise<{ ok: true } | Refusal>;
  /** Every registration, oldest first, as CSV; the count is audited. */
  exportCsv(): Promise<string>;
};

/** A refusal a staff member can act on, in plain words. */
export type Refusal = { ok: false; message: string };

export type InviteSummary = { email: string; role: StaffRole; expiresAt: string };

/**
 * The console operations, bound to this request: the signed-in staff member is the actor
 * every change is audited under. Managers-only operations refuse a viewer here too.
 */
export type ConsoleOperations = {
  /** A valid (unused, unexpired) invite, or null. */
  invite(token: string): Promise<InviteSummary | null>;
  /** The options for navigator.credentials (JSON), with a fresh server-side challenge. */
  ceremonyOptions(
    kind: "sign-in" | "enrol" | "add",
    inviteToken?: string,
  ): Promise<{ ok: true; options: unknown } | Refusal>;
  /** Verifies the browser's response; sign-in and enrol start a new session (Set-Cookie). */
  completeCeremony(
    kind: "sign-in" | "enrol" | "add",
    response: unknown,
    inviteToken?: string,
  ): Promise<{ ok: true; setCookie?: string } | Refusal>;
  /** Ends this request's session; returns the Set-Cookie header that clears the cookie. */
  signOut(): Promise<string>;
  myPasskeys(): Promise<PasskeyListing[]>;
  listStaff(): Promise<StaffListing[]>;
  inviteStaff(
    email: string,
    role: StaffRole,
  ): Promise<{ ok: true; link: string; expiresAt: string; emailed: boolean } | Refusal>;
  changeRole(staffId: string, role: StaffRole): Promise<{ ok: true } | Refusal>;
  removeStaff(staffId: string): Promise<{ ok: true } | Refusal>;
  /** Appends to the audit trail. `detail` must never hold a registrant's address. */
  audit(
    action: string,
    entry?: { registrationId?: string | null; detail?: AuditEntry["detail"] },
  ): Promise<void>;
  auditPage(page: number): Promise<{ entries: AuditEntry[]; hasMore: boolean }>;
  /** Every role: aggregates only. */
  overview(): Promise<WaitingListOverview>;
  people: PeopleOperations;
  announcements(): Promise<AnnouncementSummary[]>;
  announcement(id: string): Promise<AnnouncementView | null>;
  /** A new draft, or (with `id`) a draft rewritten. */
  composeAnnouncement(
    input: AnnouncementInput,
    id?: string,
  ): Promise<{ ok: true; id: string } | Refusal>;
  /** One step of the four-eyes path; "test" emails it to the signed-in manager only. */
  announcementStep(
    id: string,
    step: Exclude<AnnouncementStep, "edit">,
    options?: { acknowledged?: boolean },
  ): Promise<{ ok: true } | Refusal>;
};

export type AnnouncementState =
  "draft" | "submitted" | "approved" | "sending" | "sent" | "withdrawn";
export type AnnouncementAudience = "all" | "updates";

export type AnnouncementSummary = {
  id: string;
  subject: string;
  audience: AnnouncementAudience;
  state: AnnouncementState;
  updatedAt: string;
};

/** One announcement as its page shows it (docs/decisions/136). */
export type AnnouncementView = AnnouncementSummary & {
  body: string;
  /** The author's address, or null when it came from the command line. */
  author: string | null;
  writtenByYou: boolean;
  approvedBy: string | null;
  approvedAt: string | null;
  /** What may advertise a prescription-only medicine; null when nothing does. */
  warning: { medicines: string[]; prices: string[] } | null;
  acknowledgedBy: string | null;
  /** The email as its recipients get it, greeted "Hello there," instead of by name. */
  preview: { subject: string; html: string; text: string };
  /** Who would get it if sent now, and who already has it queued or sent. */
  recipients: { fresh: number; already: number };
  progress: { sent: number; queued: number; failed: number } | null;
  managers: number;
  /** The steps this staff member may take now. */
  steps: AnnouncementStep[];
};

export type AnnouncementStep =
  "edit" | "submit" | "reopen" | "approve" | "send" | "withdraw" | "test";

export type AnnouncementInput = { subject: string; body: string; audience: AnnouncementAudience };

export type ConsoleServices = {
  /** The signed-in staff member of this request, or null. */
  staff: StaffMember | null;
  operations: ConsoleOperations;
  /** A `.data` or JSON request: refused with 401, not redirected to the sign-in page. */
  answersData: boolean;
};

/** Set only by the console listener; like appServicesContext, written as createContext() returns it. */
export const consoleServicesContext: RouterContext<ConsoleServices | null> = { defaultValue: null };
