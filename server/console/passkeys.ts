import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";

import type { StoredPasskey } from "./passkey-store.ts";
import { hashToken, sessionCookie } from "./session.ts";
import { ActiveMemberError } from "./staff.ts";
import type { StaffStore } from "./store.ts";
import { clinic } from "../../app/content/clinic.ts";
import {
  type CeremonyKind,
  type ConfirmFirst,
  type Refusal,
  refuse,
  type StaffMember,
} from "../../contract/console.ts";
import { isUnavailableError } from "../db/writes.ts";

/**
 * The passkey ceremonies (docs/decisions/133, 178), through @simplewebauthn/server with
 * user verification required: enrolment from an invite, adding a passkey, signing in, and
 * confirming the signed-in person again before a change to their passkeys or sessions.
 * Every challenge is the server's, for one purpose and subject, used once.
 */

export const confirmFirst: ConfirmFirst = {
  ok: false,
  confirmFirst: true,
  message: "First confirm it is you with one of your passkeys.",
};

const memberRefusal = refuse(
  "This invitation is for the address of someone already on the staff: it cannot be used. Ask a manager to reset them instead.",
);

type Ceremonies = {
  store: StaffStore;
  origin: string;
  rpID: string;
  cookie: ReturnType<typeof sessionCookie>;
};

/** Who asks: the signed-in person, the invite in the link, the session's token. */
export type Asker = { staff: StaffMember | null; inviteToken?: string; sessionToken?: string };

type Options = { ok: true; options: unknown } | { ok: true; confirmedUntil: string } | Refusal;

/** This session's confirmation, while it holds (docs/decisions/178). */
const confirmedUntil = (c: Ceremonies, sessionToken?: string) =>
  sessionToken ? c.store.confirmedUntil(sessionToken) : Promise.resolve(null);

/** Options for an assertion, with our challenge for this purpose and subject. */
async function assertionOptions(c: Ceremonies, purpose: "sign-in" | "confirm", subject: string) {
  const options = await generateAuthenticationOptions({
    rpID: c.rpID,
    userVerification: "required",
  });
  await c.store.issueChallenge(options.challenge, purpose, subject);
  return { ok: true as const, options };
}

async function ceremonyOptions(c: Ceremonies, kind: CeremonyKind, who: Asker): Promise<Options> {
  if (kind === "sign-in") return assertionOptions(c, kind, "");
  if (kind === "confirm") return confirmOptions(c, who);
  let userName: string;
  let subject: string;
  let existing: { id: string }[] = [];
  if (kind === "enrol") {
    const invite = who.inviteToken ? await c.store.validInvite(who.inviteToken) : null;
    if (!invite || !who.inviteToken) return refuse("This invitation link has expired or was used.");
    if (await c.store.activeByEmail(invite.email)) return memberRefusal;
    userName = invite.email;
    subject = hashToken(who.inviteToken);
  } else {
    if (!who.staff) return refuse("Sign in first.");
    if (!(await confirmedUntil(c, who.sessionToken))) return confirmFirst;
    userName = who.staff.email;
    subject = who.staff.id;
    existing = await c.store.passkeysOf(who.staff.id);
  }
  const options = await generateRegistrationOptions({
    rpName: `${clinic.name} staff console`,
    rpID: c.rpID,
    userName,
    attestationType: "none",
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    excludeCredentials: existing.map((p) => ({ id: p.id })),
  });
  await c.store.issueChallenge(options.challenge, kind, subject);
  return { ok: true, options };
}

/**
 * Options to confirm the signed-in person with one of their own passkeys, or none while
 * this session's last confirmation holds (docs/decisions/178).
 */
async function confirmOptions(c: Ceremonies, { staff, sessionToken }: Asker): Promise<Options> {
  if (!staff || !sessionToken) return refuse("Sign in first.");
  const until = await confirmedUntil(c, sessionToken);
  if (until) return { ok: true, confirmedUntil: until };
  const passkeys = await c.store.passkeysOf(staff.id);
  if (passkeys.length === 0)
    return refuse("You have no passkey to confirm with. Ask a manager for a new invitation.");
  // No allow list: every console passkey is discoverable, and Firefox ESR 153's virtual
  // authenticator refuses (NotAllowedError) a list naming a passkey it does not hold. The
  // answer must still come from one of theirs (confirm).
  return assertionOptions(c, "confirm", staff.id);
}

/** The passkey's new counter when the assertion answers our challenge, else null. */
async function checkAssertion(
  c: Ceremonies,
  response: AuthenticationResponseJSON,
  credential: StoredPasskey,
  purpose: "sign-in" | "confirm",
  subject: string,
): Promise<number | null> {
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: (challenge) => c.store.consumeChallenge(challenge, purpose, subject),
    expectedOrigin: c.origin,
    expectedRPID: c.rpID,
    credential,
    requireUserVerification: true,
  }).catch(() => null);
  return result?.verified ? result.authenticationInfo.newCounter : null;
}

/** An assertion by one of the signed-in person's own passkeys confirms this session. */
async function confirm(c: Ceremonies, response: AuthenticationResponseJSON, who: Asker) {
  const { staff, sessionToken } = who;
  if (!staff || !sessionToken) return refuse("Sign in first.");
  const found = typeof response.id === "string" ? await c.store.passkey(response.id) : null;
  const counter =
    found?.staff.id === staff.id
      ? await checkAssertion(c, response, found.passkey, "confirm", staff.id)
      : null;
  if (!found || counter === null) {
    await c.store.audit({ staffId: staff.id, action: "confirm-failed" });
    return refuse("That did not confirm it is you. Use one of your own passkeys and try again.");
  }
  await c.store.passkeyUsed(found.passkey.id, counter);
  await c.store.confirmSession(sessionToken);
  await c.store.audit({ staffId: staff.id, action: "confirmed-with-passkey" });
  return { ok: true as const };
}

async function signIn(c: Ceremonies, response: AuthenticationResponseJSON, replacing?: string) {
  const failed = (staffId: string | null, reason: string) =>
    c.store.audit({ staffId, action: "sign-in-failed", detail: { reason } });
  const found = typeof response.id === "string" ? await c.store.passkey(response.id) : null;
  if (!found) {
    await failed(null, "unknown passkey");
    return refuse("That passkey is not registered here. Ask a manager for a new invitation.");
  }
  const counter = await checkAssertion(c, response, found.passkey, "sign-in", "");
  if (counter === null) {
    await failed(found.staff.id, "not verified");
    return refuse("Signing in did not work. Please try again.");
  }
  await c.store.passkeyUsed(found.passkey.id, counter);
  const token = await c.store.createSession(found.staff.id, replacing);
  await c.store.audit({ staffId: found.staff.id, action: "signed-in" });
  return { ok: true as const, setCookie: c.cookie.set(token) };
}

/** The new passkey when the attestation answers our challenge, else null. */
async function register(
  c: Ceremonies,
  kind: "enrol" | "add",
  response: RegistrationResponseJSON,
  subject: string,
): Promise<StoredPasskey | null> {
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: (challenge) => c.store.consumeChallenge(challenge, kind, subject),
    expectedOrigin: c.origin,
    expectedRPID: c.rpID,
    requireUserVerification: true,
  }).catch(() => null);
  if (!result?.verified) return null;
  const { credential } = result.registrationInfo;
  return {
    id: credential.id,
    publicKey: new Uint8Array(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

async function completeCeremony(
  c: Ceremonies,
  kind: CeremonyKind,
  response: unknown,
  who: Asker,
): Promise<{ ok: true; setCookie?: string } | Refusal> {
  if (typeof response !== "object" || response === null) return refuse("Nothing to check.");
  if (kind === "sign-in")
    return signIn(c, response as AuthenticationResponseJSON, who.sessionToken);
  if (kind === "confirm") return confirm(c, response as AuthenticationResponseJSON, who);
  if (kind === "add" && !(await confirmedUntil(c, who.sessionToken))) return confirmFirst;
  const subject =
    kind === "enrol" ? (who.inviteToken ? hashToken(who.inviteToken) : "") : (who.staff?.id ?? "");
  if (!subject)
    return refuse(
      kind === "enrol" ? "This invitation link has expired or was used." : "Sign in first.",
    );
  const passkey = await register(c, kind, response as RegistrationResponseJSON, subject);
  if (!passkey) return refuse("The passkey could not be checked. Please try again.");
  try {
    if (kind === "add" && who.staff) {
      await c.store.addPasskey(who.staff.id, passkey);
      await c.store.audit({ staffId: who.staff.id, action: "passkey-added" });
      return { ok: true };
    }
    return await enrol(c, who, passkey);
  } catch (error) {
    if (isUnavailableError(error)) throw error;
    return refuse("That passkey is already registered here.");
  }
}

/** The invite's person, enrolled with their first passkey, signed in. */
async function enrol(c: Ceremonies, who: Asker, passkey: StoredPasskey) {
  const person = await c.store.enrol(who.inviteToken ?? "", passkey).catch((error: unknown) => {
    if (error instanceof ActiveMemberError) return "active" as const;
    throw error;
  });
  if (person === "active") {
    await c.store.audit({ staffId: null, action: "enrol-refused", detail: { reason: "active" } });
    return memberRefusal;
  }
  if (!person) return refuse("This invitation link has expired or was used.");
  await c.store.audit({ staffId: person.id, action: "enrolled", detail: { role: person.role } });
  const token = await c.store.createSession(person.id, who.sessionToken);
  return { ok: true as const, setCookie: c.cookie.set(token) };
}

/** The ceremonies for the console at `consoleOrigin`, whose host name is the RP ID. */
export function createPasskeyCeremonies({
  store,
  consoleOrigin,
}: {
  store: StaffStore;
  consoleOrigin: string;
}) {
  const c: Ceremonies = {
    store,
    origin: consoleOrigin,
    rpID: new URL(consoleOrigin).hostname,
    cookie: sessionCookie(consoleOrigin),
  };
  return {
    ceremonyOptions: (kind: CeremonyKind, who: Asker) => ceremonyOptions(c, kind, who),
    completeCeremony: (kind: CeremonyKind, response: unknown, who: Asker) =>
      completeCeremony(c, kind, response, who),
    confirmedUntil: (sessionToken?: string) => confirmedUntil(c, sessionToken),
  };
}
