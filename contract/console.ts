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

/** Whether someone (null: no session) may use a route that needs `access`. */
export const mayUse = (role: StaffRole | null, access: Access) =>
  access === "public" || (role !== null && (access === "viewer" || role === "manager"));

/**
 * The staff console, one row per route (docs/decisions/182): its path and module, who may
 * load it (`view`) and who may post to it (`act`; absent: it has no loader or action),
 * `personal` when loading it reads a person, so it opens only from the console itself
 * (docs/decisions/177), and `nav`, its label in the navigation, shown to whoever may view
 * it. app/routes.ts and the navigation are built from it; the console listener checks
 * every request against it once, before React Router (server/console/route-gate.ts). A new
 * console page is its route module, its row here and its spec. In navigation order.
 */
export const consoleRoutes = {
  "/console": { file: "overview.tsx", view: "viewer", nav: "Overview" },
  "/console/people": { file: "people.tsx", view: "manager", act: "manager", nav: "People" },
  "/console/people/record": { file: "person.tsx", view: "manager", act: "manager", personal: true },
  "/console/people/copy": { file: "copy.tsx", view: "manager", personal: true },
  "/console/people/download": { file: "download.ts", view: "manager", personal: true },
  "/console/people/export": { file: "export.ts", view: "manager", personal: true },
  "/console/staff": { file: "staff.tsx", view: "manager", act: "manager", nav: "Staff" },
  "/console/announcements": {
    file: "announcements.tsx",
    view: "manager",
    act: "manager",
    nav: "Announcements",
  },
  "/console/announcements/draft": { file: "announcement.tsx", view: "manager", act: "manager" },
  "/console/audit": { file: "audit.tsx", view: "manager", nav: "Audit trail" },
  "/console/passkeys": { file: "passkeys.tsx", view: "viewer", act: "viewer", nav: "My passkeys" },
  "/console/sign-in": { file: "sign-in.tsx", view: "public" },
  "/console/enrol": { file: "enrol.tsx", view: "public" },
  "/console/passkey": { file: "passkey.ts", act: "public" },
  "/console/sign-out": { file: "sign-out.ts", act: "viewer" },
} as const satisfies Record<string, ConsoleRoute>;

export type ConsoleRoute = {
  /** The module, in app/routes/console/. */
  file: string;
  view?: Access;
  act?: Access;
  personal?: true;
  nav?: string;
};

/** The navigation a staff member sees: the labelled rows their role may view. */
export const consoleNav = (role: StaffRole) =>
  Object.entries(consoleRoutes as Record<string, ConsoleRoute>).flatMap(([to, route]) =>
    route.nav && route.view && mayUse(role, route.view) ? [{ to, label: route.nav }] : [],
  );

/** CSV exports of every registration a manager may make in any 24 hours (docs/decisions/177). */
export const EXPORTS_PER_DAY = 5;

export type ConsolePath = keyof typeof consoleRoutes;

export type StaffMember = { id: string; email: string; role: StaffRole };

export type StaffListing = StaffMember & {
  createdAt: string;
  passkeys: number;
  lastSignInAt: string | null;
  /** A manager made a manager by this person alone, when they were the only manager. */
  managerBy: string | null;
};

/** A staff change that needs a second manager's agreement (docs/decisions/175). */
export type StaffChange = "invite" | "role" | "remove" | "reset";

/** A staff change waiting for a second manager, as every manager sees it. */
export type StaffRequest = {
  id: string;
  change: StaffChange;
  /** The address of the person it concerns (for an invitation, the address invited). */
  email: string;
  /** The role an invitation or a role change gives. */
  role: StaffRole | null;
  requestedBy: string;
  requestedAt: string;
  byYou: boolean;
  /** This manager may agree to it (someone else, independent of who asked). */
  mayAgree: boolean;
};

/** An invitation not yet used, on the staff page. */
export type PendingInvitation = {
  email: string;
  role: StaffRole;
  createdAt: string;
  expiresAt: string;
  /** Who made it; null: the command line. */
  invitedBy: string | null;
  /** It replaces the passkeys of someone reset. */
  reset: boolean;
};

/**
 * A new enrolment link: emailed only to its address when the console has a mailer, never
 * shown then; otherwise shown once to the manager who made it.
 */
export type Invitation = Omit<PendingInvitation, "createdAt" | "invitedBy"> &
  ({ emailed: true } | { emailed: false; link: string });

/** A staff change made at once (an invitation's link with it), or waiting for agreement. */
export type StaffOutcome =
  { ok: true; pending: false; invitation?: Invitation } | { ok: true; pending: true };

/** One of a person's passkeys; `transports` as the authenticator named them ("internal", "usb"...). */
export type PasskeyListing = {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
  transports: string[];
};

/** One of a person's live sessions, by its public id (never its token; docs/decisions/178). */
export type SessionListing = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  /** The session of this request. */
  current: boolean;
};

export type AuditEntry = {
  at: string;
  /** The staff member's address, or null when none is known (a failed sign-in). */
  staff: string | null;
  action: string;
  registrationId: string | null;
  detail: Record<string, string | number | boolean | null>;
};

/** An entry as the server writes it: by staff id, before it has its time. */
export type AuditRecord = {
  staffId: string | null;
  action: string;
  registrationId?: string | null;
  detail?: AuditEntry["detail"];
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
  /** Every registration, oldest first, as CSV; the count is audited. At most EXPORTS_PER_DAY. */
  exportCsv(): Promise<string | Refusal>;
};

/** A refusal a staff member can act on, in plain words. */
export type Refusal = { ok: false; message: string };
export const refuse = (message: string): Refusal => ({ ok: false, message });

/**
 * The passkey ceremonies: sign in, enrol from an invite, add a passkey, and confirm, an
 * assertion by one of the signed-in person's own passkeys (docs/decisions/178).
 */
export type CeremonyKind = "sign-in" | "enrol" | "add" | "confirm";

/** Refused until this session confirms its person with a passkey (403; docs/decisions/178). */
export type ConfirmFirst = Refusal & { confirmFirst: true };

export type InviteSummary = { email: string; role: StaffRole; expiresAt: string };

/**
 * The console operations, bound to this request: the signed-in staff member is the actor
 * every change is audited under. Managers' operations reject anyone else: the console's
 * gate refused them before any route ran.
 */
export type ConsoleOperations = {
  /** A valid (unused, unexpired) invite, or null. */
  invite(token: string): Promise<InviteSummary | null>;
  /**
   * The options for navigator.credentials (JSON), with a fresh server-side challenge; for
   * "confirm", none while this session's confirmation still holds (`confirmedUntil`).
   */
  ceremonyOptions(
    kind: CeremonyKind,
    inviteToken?: string,
  ): Promise<{ ok: true; options: unknown } | { ok: true; confirmedUntil: string } | Refusal>;
  /**
   * Verifies the browser's response; sign-in and enrol start a new session (Set-Cookie),
   * confirm marks this session confirmed.
   */
  completeCeremony(
    kind: CeremonyKind,
    response: unknown,
    inviteToken?: string,
  ): Promise<{ ok: true; setCookie?: string } | Refusal>;
  /** Ends this request's session; returns the Set-Cookie header that clears the cookie. */
  signOut(): Promise<string>;
  myPasskeys(): Promise<PasskeyListing[]>;
  listStaff(): Promise<StaffListing[]>;
  /** Managers only: invitations not yet used, and staff changes waiting for agreement. */
  staffInvitations(): Promise<PendingInvitation[]>;
  staffRequests(): Promise<StaffRequest[]>;
  /**
   * Changes that add or remove a manager wait for a second manager when one could agree
   * (docs/decisions/175); an address of an active member is never invited.
   */
  inviteStaff(email: string, role: StaffRole): Promise<StaffOutcome | Refusal>;
  changeRole(staffId: string, role: StaffRole): Promise<StaffOutcome | Refusal>;
  removeStaff(staffId: string): Promise<StaffOutcome | Refusal>;
  /** Ends every session and passkey of the person, then invites them again. */
  resetStaff(staffId: string): Promise<StaffOutcome | Refusal>;
  /** Agree to a waiting change (it happens now), or cancel one you asked for. */
  answerStaffRequest(
    requestId: string,
    answer: "agree" | "cancel",
  ): Promise<StaffOutcome | Refusal>;
  /** Appends to the audit trail. `detail` must never hold a registrant's address. */
  audit(action: string, entry?: Omit<AuditRecord, "staffId" | "action">): Promise<void>;
  auditPage(page: number): Promise<{ entries: AuditEntry[]; hasMore: boolean }>;
  /**
   * Every role: aggregates only, and the staff changes waiting for a manager's agreement
   * (none for a viewer).
   */
  overview(): Promise<WaitingListOverview & { staffWaiting: number }>;
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
    options?: AnnouncementSeen,
  ): Promise<{ ok: true } | Refusal>;
  /** Until when this session may change passkeys and end sessions, or null (decision 178). */
  confirmedUntil(): Promise<string | null>;
  /** Their last passkey only with `confirmLast`; then every session ends (`signedOut`: Set-Cookie). */
  removePasskey(
    id: string,
    confirmLast: boolean,
  ): Promise<{ ok: true; signedOut?: string } | Refusal | ConfirmFirst>;
  mySessions(): Promise<SessionListing[]>;
  /** Ends one of this person's other sessions by public id, or (no id) every other one. */
  endMySessions(id?: string): Promise<{ ok: true; ended: number } | Refusal | ConfirmFirst>;
  /** Managers: ends every session of a staff member. */
  endSessionsOf(staffId: string): Promise<{ ok: true; ended: number } | Refusal>;
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
  /** Approved (and perhaps sent) by its author, as no other manager could approve it. */
  approvedAlone: boolean;
};

/** One announcement as its page shows it (docs/decisions/136). */
export type AnnouncementView = AnnouncementSummary & {
  body: string;
  /** The subject, text and audience shown; submit, approve and send count only for these. */
  version: string;
  /** The author's address, or null when it came from the command line. */
  author: string | null;
  writtenByYou: boolean;
  approvedBy: string | null;
  approvedAt: string | null;
  /** What may advertise a prescription-only medicine; null when nothing does. */
  warning: { medicines: string[]; prices: string[] } | null;
  /** Who ticked the warning's box as they submitted it ("the command line" from the CLI). */
  acknowledgedBy: string | null;
  /** The approver ticked it too, as they approved it. */
  approvalAcknowledged: boolean;
  /** The email as its recipients get it, greeted "Hello there," instead of by name. */
  preview: { subject: string; html: string; text: string };
  /** Who would get it if sent now, and who already has it queued or sent. */
  recipients: { fresh: number; already: number };
  progress: {
    sent: number;
    queued: number;
    failed: number;
    /** Emails a minute now, and when the last should go (null when done or stalled). */
    perMinute: number;
    finishAt: string | null;
    finishIn: string | null;
    /** The mail server answered "slow down" (SMTP 421 or 451) to emails still waiting. */
    slowedDown: boolean;
  } | null;
  /** Active managers other than the author who may approve it; 0: the author may, alone. */
  otherApprovers: number;
  /** The steps this staff member may take now. */
  steps: AnnouncementStep[];
};

export type AnnouncementStep =
  "edit" | "submit" | "reopen" | "approve" | "send" | "withdraw" | "test";

/** What the page a step came from showed: its version of the words, and the warning's box. */
export type AnnouncementSeen = { acknowledged?: boolean; version?: string };

export type AnnouncementInput = { subject: string; body: string; audience: AnnouncementAudience };

export type ConsoleServices = {
  /** The signed-in staff member of this request, or null. */
  staff: StaffMember | null;
  operations: ConsoleOperations;
  /** A `.data` or JSON request: refused with 401, not redirected to the sign-in page. */
  answersData: boolean;
  /**
   * The console gate's verdict on this request from the route table (server/console/
   * route-gate.ts), which the console's layout answers before any route runs: no session,
   * or not for this staff member's role.
   */
  refused: "sign-in" | "role" | null;
};

/** Set only by the console listener; like appServicesContext, written as createContext() returns it. */
export const consoleServicesContext: RouterContext<ConsoleServices | null> = { defaultValue: null };
