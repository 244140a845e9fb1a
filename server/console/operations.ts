import { randomUUID } from "node:crypto";

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";

import { createPeopleOperations, noPeople } from "./people.ts";
import { hashToken, sessionCookie } from "./session.ts";
import type { StaffStore } from "./store.ts";
import { clinic } from "../../app/content/clinic.ts";
import { staffInviteEmail } from "../../app/content/console.ts";
import {
  type ConsoleOperations,
  type Refusal,
  STAFF_ROLES,
  type StaffMember,
  type StaffRole,
} from "../../contract/console.ts";
import type { AnnouncementDrafts } from "../announcements/drafts.ts";
import { isUnavailableError } from "../db/writes.ts";
import type { Logger } from "../logger.ts";
import type { Mailer } from "../mail/transport.ts";
import type { RegistrationAdmin } from "../registrations/admin.ts";

type Kind = "sign-in" | "enrol" | "add";

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

const refuse = (message: string): Refusal => ({ ok: false, message });

const emailSchema = z.email();

/**
 * The one set of staff operations (docs/decisions/133). The CLI calls them with no actor
 * (the operator at the terminal), the console with the signed-in staff member; every
 * change is audited under that actor. The WebAuthn ceremonies (through
 * @simplewebauthn/server, user verification required) live here too.
 */
export function createStaffOperations({
  store,
  consoleOrigin,
  mailer,
  logger,
  admin,
  announcements,
}: StaffOperationsOptions) {
  const rpID = new URL(consoleOrigin).hostname;
  const cookie = sessionCookie(consoleOrigin);
  const isManager = (actor: StaffMember | null) => actor === null || actor.role === "manager";
  const managersOnly = refuse("Only a manager can do that.");

  const audit = (
    actor: StaffMember | null,
    action: string,
    detail: Record<string, string | number | boolean | null> = {},
  ) =>
    store.audit({
      staffId: actor?.id ?? null,
      action,
      detail: actor ? detail : { ...detail, by: "cli" },
    });

  async function invite(actor: StaffMember | null, email: string, role: StaffRole) {
    if (!isManager(actor)) return managersOnly;
    const address = email.trim().toLowerCase();
    if (!emailSchema.safeParse(address).success) return refuse("Enter an email address.");
    if (!STAFF_ROLES.includes(role)) return refuse("Choose viewer or manager.");
    const { token, expiresAt } = await store.createInvite(address, role);
    const link = `${consoleOrigin}/console/enrol?token=${token}`;
    let emailed = false;
    if (mailer) {
      const words = staffInviteEmail({ link, role, expiresAt: new Date(expiresAt) });
      try {
        await mailer.send({ outboxId: randomUUID(), to: address, ...words });
        emailed = true;
      } catch (error) {
        logger?.warn({ err: error }, "the invitation email could not be sent");
      }
    }
    await audit(actor, "staff-invited", { email: address, role });
    return { ok: true as const, link, expiresAt, emailed };
  }

  async function checkManagersLeft(target: { id: string; role: StaffRole }, newRole?: StaffRole) {
    if (target.role !== "manager" || newRole === "manager") return null;
    return (await store.managers()) <= 1
      ? refuse("The console needs at least one manager: make someone else a manager first.")
      : null;
  }

  async function remove(actor: StaffMember | null, staffId: string) {
    if (!isManager(actor)) return managersOnly;
    const target = await store.activeById(staffId);
    if (!target) return refuse("That person is not on the staff list.");
    const problem = await checkManagersLeft(target);
    if (problem) return problem;
    await store.remove(target.id);
    await audit(actor, "staff-removed", { email: target.email });
    return { ok: true as const };
  }

  async function changeRole(actor: StaffMember | null, staffId: string, role: StaffRole) {
    if (!isManager(actor)) return managersOnly;
    if (!STAFF_ROLES.includes(role)) return refuse("Choose viewer or manager.");
    const target = await store.activeById(staffId);
    if (!target) return refuse("That person is not on the staff list.");
    if (target.role === role) return { ok: true as const };
    const problem = await checkManagersLeft(target, role);
    if (problem) return problem;
    await store.setRole(target.id, role);
    await audit(actor, "staff-role-changed", { email: target.email, from: target.role, to: role });
    return { ok: true as const };
  }

  /** `staff revoke --email`: removes the person with that address. */
  async function revokeByEmail(actor: StaffMember | null, email: string) {
    const target = await store.activeByEmail(email);
    if (!target) return refuse("No staff member has that address.");
    return remove(actor, target.id);
  }

  async function ceremonyOptions(
    kind: Kind,
    who: { staff: StaffMember | null; inviteToken?: string },
  ): Promise<{ ok: true; options: unknown } | Refusal> {
    if (kind === "sign-in") {
      const options = await generateAuthenticationOptions({ rpID, userVerification: "required" });
      await store.issueChallenge(options.challenge, kind, "");
      return { ok: true, options };
    }
    let userName: string;
    let subject: string;
    let existing: { id: string }[] = [];
    if (kind === "enrol") {
      const invite = who.inviteToken ? await store.validInvite(who.inviteToken) : null;
      if (!invite || !who.inviteToken)
        return refuse("This invitation link has expired or was used.");
      userName = invite.email;
      subject = hashToken(who.inviteToken);
      const person = await store.activeByEmail(invite.email);
      if (person) existing = await store.passkeysOf(person.id);
    } else {
      if (!who.staff) return refuse("Sign in first.");
      userName = who.staff.email;
      subject = who.staff.id;
      existing = await store.passkeysOf(who.staff.id);
    }
    const options = await generateRegistrationOptions({
      rpName: `${clinic.name} staff console`,
      rpID,
      userName,
      attestationType: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: existing.map((p) => ({ id: p.id })),
    });
    await store.issueChallenge(options.challenge, kind, subject);
    return { ok: true, options };
  }

  async function signIn(response: AuthenticationResponseJSON, replacing?: string) {
    const found = typeof response.id === "string" ? await store.passkey(response.id) : null;
    if (!found) {
      await store.audit({
        staffId: null,
        action: "sign-in-failed",
        detail: { reason: "unknown passkey" },
      });
      return refuse("That passkey is not registered here. Ask a manager for a new invitation.");
    }
    let verified = false;
    let counter = found.passkey.counter;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => store.consumeChallenge(challenge, "sign-in", ""),
        expectedOrigin: consoleOrigin,
        expectedRPID: rpID,
        credential: found.passkey,
        requireUserVerification: true,
      });
      verified = result.verified;
      counter = result.authenticationInfo.newCounter;
    } catch {
      verified = false;
    }
    if (!verified) {
      await store.audit({
        staffId: found.staff.id,
        action: "sign-in-failed",
        detail: { reason: "not verified" },
      });
      return refuse("Signing in did not work. Please try again.");
    }
    await store.passkeyUsed(found.passkey.id, counter);
    const token = await store.createSession(found.staff.id, replacing);
    await store.audit({ staffId: found.staff.id, action: "signed-in" });
    return { ok: true as const, setCookie: cookie.set(token) };
  }

  async function register(
    kind: "enrol" | "add",
    response: RegistrationResponseJSON,
    subject: string,
  ) {
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => store.consumeChallenge(challenge, kind, subject),
        expectedOrigin: consoleOrigin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
      if (!result.verified) return null;
      const { credential } = result.registrationInfo;
      return {
        id: credential.id,
        publicKey: new Uint8Array(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
      };
    } catch {
      return null;
    }
  }

  async function completeCeremony(
    kind: Kind,
    response: unknown,
    who: { staff: StaffMember | null; inviteToken?: string; sessionToken?: string },
  ): Promise<{ ok: true; setCookie?: string } | Refusal> {
    if (typeof response !== "object" || response === null) return refuse("Nothing to check.");
    if (kind === "sign-in") return signIn(response as AuthenticationResponseJSON, who.sessionToken);
    const subject =
      kind === "enrol"
        ? who.inviteToken
          ? hashToken(who.inviteToken)
          : ""
        : (who.staff?.id ?? "");
    if (!subject)
      return refuse(
        kind === "enrol" ? "This invitation link has expired or was used." : "Sign in first.",
      );
    const passkey = await register(kind, response as RegistrationResponseJSON, subject);
    if (!passkey) return refuse("The passkey could not be checked. Please try again.");
    try {
      if (kind === "add" && who.staff) {
        await store.addPasskey(who.staff.id, passkey);
        await store.audit({ staffId: who.staff.id, action: "passkey-added" });
        return { ok: true };
      }
      const person = await store.enrol(who.inviteToken ?? "", passkey);
      if (!person) return refuse("This invitation link has expired or was used.");
      await store.audit({ staffId: person.id, action: "enrolled", detail: { role: person.role } });
      const token = await store.createSession(person.id, who.sessionToken);
      return { ok: true, setCookie: cookie.set(token) };
    } catch (error) {
      if (isUnavailableError(error)) throw error;
      return refuse("That passkey is already registered here.");
    }
  }

  /** The operations as one request of the console sees them (contract/console.ts). */
  function forRequest(staff: StaffMember | null, sessionToken?: string): ConsoleOperations {
    const requireManager = <T>(run: (actor: StaffMember) => Promise<T>) =>
      staff?.role === "manager" ? run(staff) : Promise.resolve(managersOnly);
    return {
      invite: (token) => store.validInvite(token),
      ceremonyOptions: (kind, inviteToken) => ceremonyOptions(kind, { staff, inviteToken }),
      completeCeremony: (kind, response, inviteToken) =>
        completeCeremony(kind, response, { staff, inviteToken, sessionToken }),
      async signOut() {
        if (sessionToken) await store.endSession(sessionToken);
        if (staff) await store.audit({ staffId: staff.id, action: "signed-out" });
        return cookie.clear();
      },
      myPasskeys: async () => (staff ? store.passkeysOf(staff.id) : []),
      listStaff: async () => (staff?.role === "manager" ? store.list() : []),
      inviteStaff: (email, role) => requireManager((actor) => invite(actor, email, role)),
      changeRole: (id, role) => requireManager((actor) => changeRole(actor, id, role)),
      removeStaff: (id) => requireManager((actor) => remove(actor, id)),
      audit: (action, entry) =>
        store.audit({
          staffId: staff?.id ?? null,
          action,
          registrationId: entry?.registrationId,
          detail: entry?.detail,
        }),
      auditPage: async (page) =>
        staff?.role === "manager" ? store.auditPage(page) : { entries: [], hasMore: false },
      overview: () => {
        if (!staff || !admin) throw new Error("The overview needs a signed-in staff member.");
        return admin.overview();
      },
      people:
        staff?.role === "manager" && admin ? createPeopleOperations(admin, store, staff) : noPeople,
      announcements: async () =>
        staff?.role === "manager" && announcements ? announcements.list() : [],
      announcement: async (id) =>
        staff?.role === "manager" && announcements ? announcements.view(staff, id) : null,
      composeAnnouncement: (input, id) =>
        requireManager((actor) =>
          announcements ? announcements.compose(actor, input, id) : Promise.resolve(managersOnly),
        ),
      announcementStep: (id, step, options) =>
        requireManager((actor) =>
          announcements
            ? announcements.step(actor, id, step, options?.acknowledged === true)
            : Promise.resolve(managersOnly),
        ),
    };
  }

  return { invite, remove, changeRole, revokeByEmail, list: store.list, forRequest };
}

export type StaffOperations = ReturnType<typeof createStaffOperations>;
