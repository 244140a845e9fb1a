import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

import { cose, isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";
import { afterEach, describe, expect, it } from "vitest";

import { createPasskeyCeremonies } from "./passkeys.ts";
import { CHALLENGE_MS } from "./session.ts";
import type { StaffStore } from "./store.ts";
import { sqliteBackend } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { openServices } from "../services.ts";

const origin = "https://console.clinic.example";
const rpID = "console.clinic.example";

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) =>
  new Uint8Array(createHash("sha256").update(data).digest());
const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/**
 * A software passkey: one P-256 key pair (ES256), signing what a platform authenticator
 * with user verification would, so the ceremonies run end to end without a browser.
 */
function softPasskey(options: { rp?: string; origin?: string; verified?: boolean } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const rawId = new Uint8Array(randomBytes(16));
  const id = b64(rawId);
  let counter = 0;
  const flags = 0x01 | (options.verified === false ? 0 : 0x04);
  const clientData = (type: string, challenge: string) =>
    new TextEncoder().encode(
      JSON.stringify({ type, challenge, origin: options.origin ?? origin, crossOrigin: false }),
    );
  const authData = (extra: number, data = new Uint8Array()) =>
    concat(sha256(options.rp ?? rpID), new Uint8Array([flags | extra]), u32(counter), data);

  return {
    id,
    /** The answer to registration options: a "none" attestation of a new credential. */
    create(challenge: string) {
      const key = new Map<number, number | Uint8Array>([
        [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
        [cose.COSEKEYS.alg, cose.COSEALG.ES256],
        [cose.COSEKEYS.crv, cose.COSECRV.P256],
        [cose.COSEKEYS.x, isoBase64URL.toBuffer(jwk.x ?? "")],
        [cose.COSEKEYS.y, isoBase64URL.toBuffer(jwk.y ?? "")],
      ]);
      const credential = concat(
        new Uint8Array(16),
        new Uint8Array([rawId.length >> 8, rawId.length & 255]),
        rawId,
        isoCBOR.encode(key),
      );
      const attestation = new Map<string, string | Uint8Array<ArrayBuffer> | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData(0x40, credential)],
      ]);
      return {
        id,
        rawId: id,
        type: "public-key" as const,
        response: {
          clientDataJSON: b64(clientData("webauthn.create", challenge)),
          attestationObject: b64(isoCBOR.encode(attestation)),
          transports: ["internal" as const],
        },
        clientExtensionResults: {},
      };
    },
    /** The answer to authentication options: an assertion with a counter one higher. */
    get(challenge: string) {
      counter += 1;
      const data = authData(0);
      const client = clientData("webauthn.get", challenge);
      return {
        id,
        rawId: id,
        type: "public-key" as const,
        response: {
          clientDataJSON: b64(client),
          authenticatorData: b64(data),
          signature: b64(new Uint8Array(sign("sha256", concat(data, sha256(client)), privateKey))),
        },
        clientExtensionResults: {},
      };
    },
  };
}

type Answer = { ok: boolean; options?: unknown; confirmedUntil?: string; message?: string };
const challengeOf = (answer: Answer) => {
  expect(answer, answer.message).toMatchObject({ ok: true });
  return (answer.options as { challenge: string }).challenge;
};

describe("the passkey ceremonies", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let clock = new Date("2026-06-15T12:00:00.000Z");

  async function open() {
    const place = await sqliteBackend.fresh();
    cleanups.push(place.drop);
    const services = await openServices(place.env, createLogger("silent"), { now: () => clock });
    cleanups.unshift(() => services.close());
    const store: StaffStore = services.staff;
    const ceremonies = createPasskeyCeremonies({ store, consoleOrigin: origin });
    const actions = async () =>
      (await store.auditPage(1)).entries.map((e) => `${e.action} ${JSON.stringify(e.detail)}`);
    return { store, ceremonies, actions };
  }

  /** A person enrolled from a new invite with `key`, and their first session's token. */
  async function enrolled(
    { store, ceremonies }: Awaited<ReturnType<typeof open>>,
    key: ReturnType<typeof softPasskey>,
    email = "ops@clinic.example",
  ) {
    const { token: inviteToken } = await store.createInvite(email, "manager");
    const options = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
    const done = await ceremonies.completeCeremony("enrol", key.create(challengeOf(options)), {
      staff: null,
      inviteToken,
    });
    expect(done).toMatchObject({
      ok: true,
      setCookie: expect.stringMatching(/^__Host-console-session=/),
    });
    const sessionToken = /=([^;]+);/.exec((done as { setCookie: string }).setCookie)?.[1] ?? "";
    const staff = await store.resolveSession(sessionToken);
    if (!staff) throw new Error("enrolment signed nobody in");
    return { staff, sessionToken, inviteToken };
  }

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    clock = new Date("2026-06-15T12:00:00.000Z");
  });

  it("enrols from an invite once: the passkey stored, the person signed in and audited", async () => {
    const opened = await open();
    const key = softPasskey();
    const { staff, inviteToken } = await enrolled(opened, key);
    expect(staff).toMatchObject({ email: "ops@clinic.example", role: "manager" });
    expect((await opened.store.passkey(key.id))?.staff.id).toBe(staff.id);
    expect(await opened.actions()).toEqual([`enrolled {"role":"manager"}`]);

    const again = await opened.ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
    expect(again).toEqual({ ok: false, message: "This invitation link has expired or was used." });
  });

  it("asks for a resident key with user verification, bound to the console's host", async () => {
    const { store, ceremonies } = await open();
    const { token: inviteToken } = await store.createInvite("new@clinic.example", "viewer");
    const answer = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
    expect(answer).toMatchObject({
      ok: true,
      options: {
        rp: { id: rpID },
        user: { name: "new@clinic.example" },
        attestation: "none",
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      },
    });
  });

  it("refuses an enrolment not verified, for another host or origin, or for another invite", async () => {
    const opened = await open();
    const { store, ceremonies } = opened;
    const { token: inviteToken } = await store.createInvite("ops@clinic.example", "manager");
    const { token: otherInvite } = await store.createInvite("other@clinic.example", "viewer");
    const refused = { ok: false, message: "The passkey could not be checked. Please try again." };
    for (const key of [
      softPasskey({ verified: false }),
      softPasskey({ rp: "clinic.example" }),
      softPasskey({ origin: "https://console.clinic.example.evil" }),
    ]) {
      const options = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
      const answer = key.create(challengeOf(options));
      expect(
        await ceremonies.completeCeremony("enrol", answer, { staff: null, inviteToken }),
      ).toEqual(refused);
    }
    const options = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
    const answer = softPasskey().create(challengeOf(options));
    expect(
      await ceremonies.completeCeremony("enrol", answer, { staff: null, inviteToken: otherInvite }),
      "a challenge belongs to its invite",
    ).toEqual(refused);
    expect(await store.list()).toEqual([]);
  });

  it("never enrols into an active member's account", async () => {
    const opened = await open();
    await enrolled(opened, softPasskey());
    const { token: inviteToken } = await opened.store.createInvite("ops@clinic.example", "viewer");
    expect(
      await opened.ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken }),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining("someone already on the staff"),
    });
  });

  it("signs in with an enrolled passkey and counts its use", async () => {
    const opened = await open();
    const key = softPasskey();
    const { staff, sessionToken } = await enrolled(opened, key);
    const { ceremonies, store } = opened;
    const options = await ceremonies.ceremonyOptions("sign-in", { staff: null });
    expect(options).toMatchObject({
      ok: true,
      options: { rpId: rpID, userVerification: "required" },
    });
    const done = await ceremonies.completeCeremony("sign-in", key.get(challengeOf(options)), {
      staff: null,
      sessionToken,
    });
    expect(done).toMatchObject({ ok: true, setCookie: expect.any(String) });
    expect((await store.passkey(key.id))?.passkey.counter).toBe(1);
    expect(await store.resolveSession(sessionToken), "the session it replaces ends").toBeNull();
    expect((await opened.actions())[0]).toBe("signed-in {}");
    expect(staff.email).toBe("ops@clinic.example");
  });

  it("refuses a replayed assertion, an unknown passkey, a challenge never issued and an expired one", async () => {
    const opened = await open();
    const key = softPasskey();
    await enrolled(opened, key);
    const { ceremonies } = opened;
    const notVerified = { ok: false, message: "Signing in did not work. Please try again." };
    const signIn = (answer: unknown) =>
      ceremonies.completeCeremony("sign-in", answer, { staff: null });

    const options = await ceremonies.ceremonyOptions("sign-in", { staff: null });
    const answer = key.get(challengeOf(options));
    expect(await signIn(answer)).toMatchObject({ ok: true });
    expect(await signIn(answer), "replayed").toEqual(notVerified);

    const stranger = softPasskey();
    const forStranger = await ceremonies.ceremonyOptions("sign-in", { staff: null });
    expect(await signIn(stranger.get(challengeOf(forStranger)))).toEqual({
      ok: false,
      message: "That passkey is not registered here. Ask a manager for a new invitation.",
    });

    expect(await signIn(key.get(b64(new Uint8Array(randomBytes(32))))), "never issued").toEqual(
      notVerified,
    );

    const stale = await ceremonies.ceremonyOptions("sign-in", { staff: null });
    clock = new Date(clock.getTime() + CHALLENGE_MS + 1);
    expect(await signIn(key.get(challengeOf(stale))), "expired").toEqual(notVerified);

    const enrolChallenge = await opened.store.createInvite("later@clinic.example", "viewer");
    const forEnrol = await ceremonies.ceremonyOptions("enrol", {
      staff: null,
      inviteToken: enrolChallenge.token,
    });
    expect(await signIn(key.get(challengeOf(forEnrol))), "another purpose's challenge").toEqual(
      notVerified,
    );
    expect(await signIn(null)).toEqual({ ok: false, message: "Nothing to check." });

    const failures = (await opened.actions()).filter((a) => a.startsWith("sign-in-failed"));
    expect(failures).toEqual([
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"unknown passkey"}`,
      `sign-in-failed {"reason":"not verified"}`,
    ]);
  });

  it("re-verifies the signed-in person with their own passkey, for 5 minutes", async () => {
    const opened = await open();
    const mine = softPasskey();
    const theirs = softPasskey();
    const me = await enrolled(opened, mine);
    await enrolled(opened, theirs, "colleague@clinic.example");
    const { ceremonies, store } = opened;
    const asMe = { staff: me.staff, sessionToken: me.sessionToken };

    expect(await ceremonies.ceremonyOptions("confirm", { staff: null })).toEqual({
      ok: false,
      message: "Sign in first.",
    });
    const wrong = await ceremonies.ceremonyOptions("confirm", asMe);
    expect(
      await ceremonies.completeCeremony("confirm", theirs.get(challengeOf(wrong)), asMe),
      "a colleague's passkey",
    ).toEqual({
      ok: false,
      message: "That did not confirm it is you. Use one of your own passkeys and try again.",
    });
    expect(await ceremonies.confirmedUntil(me.sessionToken)).toBeNull();

    const options = await ceremonies.ceremonyOptions("confirm", asMe);
    expect(
      await ceremonies.completeCeremony("confirm", mine.get(challengeOf(options)), asMe),
    ).toEqual({
      ok: true,
    });
    const until = new Date(clock.getTime() + 5 * 60_000).toISOString();
    expect(await ceremonies.confirmedUntil(me.sessionToken)).toBe(until);
    expect(await ceremonies.ceremonyOptions("confirm", asMe), "no ceremony while it holds").toEqual(
      {
        ok: true,
        confirmedUntil: until,
      },
    );
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect(await ceremonies.confirmedUntil(me.sessionToken)).toBeNull();
    expect((await opened.actions()).filter((a) => a.startsWith("confirm"))).toEqual([
      "confirmed-with-passkey {}",
      "confirm-failed {}",
    ]);
    expect((await store.passkey(mine.id))?.passkey.counter).toBe(1);
  });

  it("adds a passkey only after a re-verification, never one the person holds", async () => {
    const opened = await open();
    const first = softPasskey();
    const me = await enrolled(opened, first);
    const { ceremonies, store } = opened;
    const asMe = { staff: me.staff, sessionToken: me.sessionToken };
    const confirmFirst = {
      ok: false,
      confirmFirst: true,
      message: "First confirm it is you with one of your passkeys.",
    };
    expect(await ceremonies.ceremonyOptions("add", asMe)).toEqual(confirmFirst);
    expect(await ceremonies.completeCeremony("add", {}, asMe)).toEqual(confirmFirst);

    const confirm = await ceremonies.ceremonyOptions("confirm", asMe);
    await ceremonies.completeCeremony("confirm", first.get(challengeOf(confirm)), asMe);
    const options = await ceremonies.ceremonyOptions("add", asMe);
    expect(options).toMatchObject({
      ok: true,
      options: { excludeCredentials: [{ id: first.id }] },
    });
    const second = softPasskey();
    expect(
      await ceremonies.completeCeremony("add", second.create(challengeOf(options)), asMe),
    ).toEqual({
      ok: true,
    });
    expect((await store.passkeysOf(me.staff.id)).map((p) => p.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );

    const twice = await ceremonies.ceremonyOptions("add", asMe);
    expect(
      await ceremonies.completeCeremony("add", second.create(challengeOf(twice)), asMe),
    ).toEqual({ ok: false, message: "That passkey is already registered here." });
    expect((await opened.actions())[0]).toBe("passkey-added {}");
  });
});
