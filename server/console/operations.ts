import { confirmFirst, createPasskeyCeremonies } from "./passkeys.ts";
import { createPeopleOperations } from "./people.ts";
import { sessionCookie } from "./session.ts";
import { auditBy, type Manager, type Outcome, staffChanges } from "./staff-changes.ts";
import type { StaffStore } from "./store.ts";
import {
  type ConfirmFirst,
  type ConsoleOperations,
  mayUse,
  type Refusal,
  refuse,
  type StaffOutcome,
  type StaffMember,
} from "../../contract/console.ts";
import type { AnnouncementDrafts } from "../announcements/drafts.ts";
import type { Logger } from "../logger.ts";
import type { Mailer } from "../mail/transport.ts";
import type { RegistrationAdmin } from "../operator/admin.ts";

export type StaffOperationsOptions = {
  store: StaffStore;
  /** CONSOLE_URL's origin: passkeys are bound to its host name (the RP ID). */
  consoleOrigin: string;
  /** Sends enrolment links when SMTP_URL is set; otherwise they are only shown. */
  mailer?: Mailer;
  logger?: Pick<Logger, "warn">;
  /** The registrations' operator tasks, for People (the console's listener gives them). */
  admin?: RegistrationAdmin;
  /** The console's announcements (decision 136); the CLI's staff commands need none. */
  announcements?: AnnouncementDrafts;
};

const managersOnly = refuse("Only a manager can do that.");

/** Who may change the staff: a manager, or (null) the operator at the terminal. */
const managesStaff = (actor: StaffMember | null): actor is Manager | null =>
  actor === null || mayUse(actor.role, "manager");

/**
 * The one role check of the operations (docs/decisions/182), for the command line and
 * tests; the console's gate refuses a viewer before any of them is reached.
 */
const asManager =
  <A extends unknown[], R>(run: (actor: Manager | null, ...args: A) => Promise<R>) =>
  (actor: StaffMember | null, ...args: A): Promise<R | Refusal> =>
    managesStaff(actor) ? run(actor, ...args) : Promise.resolve(managersOnly);

/**
 * Anyone else's: a change answers a refusal, a read fails (the gate let no viewer reach
 * a manager's page, so this is a bug, and a loud one).
 */
const refused = async () => managersOnly;
const unreadable = () => Promise.reject(new Error(managersOnly.message));
const noPeople: ConsoleOperations["people"] = {
  find: refused,
  view: unreadable,
  erase: refused,
  resendConfirmation: refused,
  exportCsv: unreadable,
};
const noAnnouncements = {
  announcements: unreadable,
  announcement: unreadable,
  composeAnnouncement: refused,
  announcementStep: refused,
};
const notManaging = {
  listStaff: unreadable,
  staffInvitations: unreadable,
  staffRequests: unreadable,
  inviteStaff: refused,
  changeRole: refused,
  removeStaff: refused,
  resetStaff: refused,
  answerStaffRequest: refused,
  endSessionsOf: refused,
  auditPage: unreadable,
  people: noPeople,
  ...noAnnouncements,
} satisfies Partial<ConsoleOperations>;
/** A manager's own operations: exactly those anyone else is refused. */
type ManagersOperations = Pick<ConsoleOperations, keyof typeof notManaging>;

/** What the console may show of an outcome: the invitation, never a link it emailed. */
const shown = (outcome: Outcome): StaffOutcome | Refusal =>
  outcome.ok && !outcome.pending
    ? {
        ok: true,
        pending: false,
        ...(outcome.invitation ? { invitation: outcome.invitation } : {}),
      }
    : outcome;

/** What a person's own passkeys and sessions need of the operations. */
type Own = {
  store: StaffStore;
  cookie: ReturnType<typeof sessionCookie>;
  confirmedUntil: (sessionToken?: string) => Promise<string | null>;
};

/**
 * A person's own passkeys and sessions (docs/decisions/178): removing a passkey or ending
 * a session needs this session confirmed with a passkey lately, so a stolen cookie alone
 * cannot lock its owner out or keep itself alive.
 */
function ownPasskeysAndSessions(
  { store, cookie, confirmedUntil }: Own,
  staff: StaffMember | null,
  sessionToken?: string,
): Pick<ConsoleOperations, "confirmedUntil" | "removePasskey" | "mySessions" | "endMySessions"> {
  const signedIn = staff && sessionToken ? { staff, sessionToken } : null;
  const whenConfirmed = async <T>(
    run: (me: StaffMember, token: string) => Promise<T>,
  ): Promise<T | Refusal | ConfirmFirst> => {
    if (!signedIn) return refuse("Sign in first.");
    if (!(await confirmedUntil(signedIn.sessionToken))) return confirmFirst;
    return run(signedIn.staff, signedIn.sessionToken);
  };
  return {
    confirmedUntil: () => confirmedUntil(sessionToken),
    removePasskey: (id, confirmLast) =>
      whenConfirmed(async (me) => {
        const { outcome, sessionsEnded } = await store.removePasskey(me.id, id, confirmLast);
        if (outcome === "missing")
          return refuse("That passkey is not one of yours, or it was removed already.");
        if (outcome === "is-last")
          return refuse(
            "This is your only passkey. Tick the box to say you understand that you will not be able to sign in again, then remove it.",
          );
        const last = outcome === "removed-last";
        await auditBy(store, me, "passkey-removed", { last });
        if (!last) return { ok: true as const };
        await auditBy(store, me, "sessions-ended", { staff: me.id, count: sessionsEnded });
        return { ok: true as const, signedOut: cookie.clear() };
      }),
    mySessions: async () => (signedIn ? store.sessionsOf(signedIn.staff.id, sessionToken) : []),
    endMySessions: (id) =>
      whenConfirmed(async (me, token) => {
        const ended = await store.endSessions(me.id, { keep: token, id });
        if (id !== undefined && ended === 0) return refuse("That session has ended already.");
        if (ended > 0) await auditBy(store, me, "sessions-ended", { staff: me.id, count: ended });
        return { ok: true as const, ended };
      }),
  };
}

/**
 * The one set of staff operations (docs/decisions/133). The CLI calls them with no actor
 * (the operator at the terminal), the console with the signed-in staff member; every
 * change is audited under that actor. The passkey ceremonies are passkeys.ts's.
 */
export function createStaffOperations(options: StaffOperationsOptions) {
  const { store, admin, announcements } = options;
  const cookie = sessionCookie(options.consoleOrigin);
  const changes = staffChanges(options);
  const { ceremonyOptions, completeCeremony, confirmedUntil } = createPasskeyCeremonies(options);

  /** The operations as one request of the console sees them (contract/console.ts). */
  function forRequest(staff: StaffMember | null, sessionToken?: string): ConsoleOperations {
    const manager = staff && managesStaff(staff) ? staff : null;
    return {
      invite: (token) => store.validInvite(token),
      ceremonyOptions: (kind, inviteToken) =>
        ceremonyOptions(kind, { staff, inviteToken, sessionToken }),
      completeCeremony: (kind, response, inviteToken) =>
        completeCeremony(kind, response, { staff, inviteToken, sessionToken }),
      async signOut() {
        if (sessionToken) await store.endSession(sessionToken);
        if (staff) await store.audit({ staffId: staff.id, action: "signed-out" });
        return cookie.clear();
      },
      myPasskeys: async () => (staff ? store.passkeysOf(staff.id) : []),
      audit: (action, entry) => store.audit({ staffId: staff?.id ?? null, action, ...entry }),
      async overview() {
        if (!staff || !admin) throw new Error("The overview needs a signed-in staff member.");
        const [overview, waiting] = await Promise.all([
          admin.overview(),
          manager ? changes.requestsFor(manager) : [],
        ]);
        return { ...overview, staffWaiting: waiting.length };
      },
      ...ownPasskeysAndSessions({ store, cookie, confirmedUntil }, staff, sessionToken),
      ...(manager ? managing(manager, sessionToken) : notManaging),
    };
  }

  /** A manager's operations in the console: the staff, the audit trail, people, announcements. */
  function managing(manager: Manager, sessionToken?: string): ManagersOperations {
    return {
      listStaff: () => store.list(),
      staffInvitations: () => store.invitations(),
      staffRequests: () => changes.requestsFor(manager),
      inviteStaff: (email, role) => changes.invite(manager, email, role).then(shown),
      changeRole: (id, role) => changes.changeRole(manager, id, role).then(shown),
      removeStaff: (id) => changes.remove(manager, id).then(shown),
      resetStaff: (id) => changes.reset(manager, id).then(shown),
      answerStaffRequest: (id, reply) => changes.answer(manager, id, reply).then(shown),
      async endSessionsOf(staffId) {
        const target = await store.activeById(staffId);
        if (!target) return refuse("That person is not on the staff list.");
        // A manager ending their own keeps the one they are using.
        const keep = target.id === manager.id ? sessionToken : undefined;
        const ended = await store.endSessions(target.id, { keep });
        await auditBy(store, manager, "sessions-ended", { staff: target.id, count: ended });
        return { ok: true as const, ended };
      },
      auditPage: (page) => store.auditPage(page),
      people: admin ? createPeopleOperations(admin, store, manager) : noPeople,
      ...(announcements
        ? {
            announcements: () => announcements.list(),
            announcement: (id: string) => announcements.view(manager, id),
            composeAnnouncement: (input, id) => announcements.compose(manager, input, id),
            announcementStep: (id, step, options) => announcements.step(manager, id, step, options),
          }
        : noAnnouncements),
    };
  }

  return {
    invite: asManager(changes.invite),
    remove: asManager(changes.remove),
    revokeByEmail: asManager(changes.revokeByEmail),
    resetByEmail: changes.resetByEmail,
    list: store.list,
    forRequest,
  };
}

export type StaffOperations = ReturnType<typeof createStaffOperations>;
