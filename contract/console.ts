import type { RouterContext } from "react-router";

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
};

export type ConsoleServices = {
  /** The signed-in staff member of this request, or null. */
  staff: StaffMember | null;
  operations: ConsoleOperations;
  /** A `.data` or JSON request: refused with 401, not redirected to the sign-in page. */
  answersData: boolean;
};

/** Set only by the console listener; like appServicesContext, written as createContext() returns it. */
export const consoleServicesContext: RouterContext<ConsoleServices | null> = { defaultValue: null };
