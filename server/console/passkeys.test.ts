import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

import { cose, isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { createPasskeyCeremonies } from "./passkeys.ts";
import { CHALLENGE_MS } from "./session.ts";
import type { StaffStore } from "./store.ts";
import { sqliteBackend, type TestPlace } from "../../tests/support/storage-backends.ts";
import { createLogger } from "../logger.ts";
import { openServices, type Services } from "../services.ts";

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
  const answer = (response: object) =>
    ({ id, rawId: id, type: "public-key", response, clientExtensionResults: {} }) as const;

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
      return answer({
        clientDataJSON: b64(clientData("webauthn.create", challenge)),
        attestationObject: b64(isoCBOR.encode(attestation)),
        transports: ["internal"],
      });
    },
    /** The answer to authentication options: an assertion with a counter one higher. */
    get(challenge: string) {
      counter += 1;
      const data = authData(0);
      const client = clientData("webauthn.get", challenge);
      return answer({
        clientDataJSON: b64(client),
        authenticatorData: b64(data),
        signature: b64(new Uint8Array(sign("sha256", concat(data, sha256(client)), privateKey))),
      });
    },
  };
}

type Answer = { ok: boolean; options?: unknown; confirmedUntil?: string; message?: string };
const challengeOf = (answer: Answer) => {
  expect(answer, answer.message).toMatchObject({ ok: true });
  return (answer.options as { challenge: string }).challenge;
};

const anon = { staff: null };
const confirmFirst = {
  ok: false,
  confirmFirst: true,
  message: "First confirm it is you with one of your passkeys.",
};

describe("the passkey ceremonies", () => {
  let clock = new Date("2026-06-15T12:00:00.000Z");
  let place: TestPlace;
  let services: Services;
  let store: StaffStore;
  let ceremonies: ReturnType<typeof createPasskeyCeremonies>;

  beforeEach(async () => {
    place = await sqliteBackend.fresh();
    services = await openServices(place.env, createLogger("silent"), { now: () => clock });
    store = services.staff;
    ceremonies = createPasskeyCeremonies({ store, consoleOrigin: origin });
  });

  afterEach(async () => {
    await services.close();
    await place.drop();
    clock = new Date("2026-06-15T12:00:00.000Z");
  });

  const actions = async () =>
    (await store.auditPage(1)).entries.map((e) => `${e.action} ${JSON.stringify(e.detail)}`);

  /** The enrolment options for a new invite to `email`, and the invite's token. */
  async function invited(email: string, role: "viewer" | "manager" = "manager") {
    const { token: inviteToken } = await store.createInvite(email, role);
    const options = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
    return { inviteToken, options };
  }

  /** A person enrolled from a new invite with `key`, their first session's token, and more. */
  async function enrolled(key: ReturnType<typeof softPasskey>, email = "ops@clinic.example") {
    const { inviteToken, options } = await invited(email);
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
    return { staff, sessionToken, inviteToken, asMe: { staff, sessionToken } };
  }

  it("enrols from an invite once: the passkey stored, the person signed in and audited", async () => {
    const key = softPasskey();
    const { staff, inviteToken } = await enrolled(key);
    expect(staff).toMatchObject({ email: "ops@clinic.example", role: "manager" });
    expect((await store.passkey(key.id))?.staff.id).toBe(staff.id);
    expect(await actions()).toEqual([`enrolled {"role":"manager"}`]);
    expect(await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken })).toEqual({
      ok: false,
      message: "This invitation link has expired or was used.",
    });
  });

  it("asks for a resident key with user verification, bound to the console's host", async () => {
    expect((await invited("new@clinic.example", "viewer")).options).toMatchObject({
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
    const { token: inviteToken } = await store.createInvite("ops@clinic.example", "manager");
    const { token: otherInvite } = await store.createInvite("other@clinic.example", "viewer");
    const refused = { ok: false, message: "The passkey could not be checked. Please try again." };
    for (const [why, made, answeredFor] of [
      ["not verified", { verified: false }, inviteToken],
      ["another host", { rp: "clinic.example" }, inviteToken],
      ["another origin", { origin: "https://console.clinic.example.evil" }, inviteToken],
      ["a challenge belongs to its invite", {}, otherInvite],
    ] as const) {
      const options = await ceremonies.ceremonyOptions("enrol", { staff: null, inviteToken });
      const answer = softPasskey(made).create(challengeOf(options));
      const who = { staff: null, inviteToken: answeredFor };
      expect(await ceremonies.completeCeremony("enrol", answer, who), why).toEqual(refused);
    }
    expect(await store.list()).toEqual([]);
  });

  it("signs in with an enrolled passkey and counts its use", async () => {
    const key = softPasskey();
    const { staff, sessionToken } = await enrolled(key);
    const options = await ceremonies.ceremonyOptions("sign-in", anon);
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
    expect((await actions())[0]).toBe("signed-in {}");
    expect(staff.email).toBe("ops@clinic.example");
  });

  it("refuses a replayed assertion, an unknown passkey, a challenge never issued and an expired one", async () => {
    const key = softPasskey();
    await enrolled(key);
    const notVerified = { ok: false, message: "Signing in did not work. Please try again." };
    const signIn = (answer: unknown) => ceremonies.completeCeremony("sign-in", answer, anon);
    const challenge = async () => challengeOf(await ceremonies.ceremonyOptions("sign-in", anon));

    const answer = key.get(await challenge());
    expect(await signIn(answer)).toMatchObject({ ok: true });
    expect(await signIn(answer), "replayed").toEqual(notVerified);
    expect(await signIn(softPasskey().get(await challenge()))).toEqual({
      ok: false,
      message: "That passkey is not registered here. Ask a manager for a new invitation.",
    });
    expect(await signIn(key.get(b64(new Uint8Array(randomBytes(32))))), "never issued").toEqual(
      notVerified,
    );
    const stale = await challenge();
    clock = new Date(clock.getTime() + CHALLENGE_MS + 1);
    expect(await signIn(key.get(stale)), "expired").toEqual(notVerified);
    const forEnrol = challengeOf((await invited("later@clinic.example", "viewer")).options);
    expect(await signIn(key.get(forEnrol)), "another purpose's challenge").toEqual(notVerified);
    expect(await signIn(null)).toEqual({ ok: false, message: "Nothing to check." });

    expect((await actions()).filter((a) => a.startsWith("sign-in-failed"))).toEqual([
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"not verified"}`,
      `sign-in-failed {"reason":"unknown passkey"}`,
      `sign-in-failed {"reason":"not verified"}`,
    ]);
  });

  it("re-verifies the signed-in person with their own passkey, for 5 minutes", async () => {
    const mine = softPasskey();
    const theirs = softPasskey();
    const { asMe, sessionToken } = await enrolled(mine);
    await enrolled(theirs, "colleague@clinic.example");
    const confirmWith = async (key: typeof mine) =>
      ceremonies.completeCeremony(
        "confirm",
        key.get(challengeOf(await ceremonies.ceremonyOptions("confirm", asMe))),
        asMe,
      );

    expect(await ceremonies.ceremonyOptions("confirm", anon)).toEqual({
      ok: false,
      message: "Sign in first.",
    });
    expect(await confirmWith(theirs), "a colleague's passkey").toEqual({
      ok: false,
      message: "That did not confirm it is you. Use one of your own passkeys and try again.",
    });
    expect(await ceremonies.confirmedUntil(sessionToken)).toBeNull();

    expect(await confirmWith(mine)).toEqual({ ok: true });
    const until = new Date(clock.getTime() + 5 * 60_000).toISOString();
    expect(await ceremonies.confirmedUntil(sessionToken)).toBe(until);
    const held = { ok: true, confirmedUntil: until };
    expect(await ceremonies.ceremonyOptions("confirm", asMe), "no ceremony while it holds").toEqual(
      held,
    );
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect(await ceremonies.confirmedUntil(sessionToken)).toBeNull();
    expect((await actions()).filter((a) => a.startsWith("confirm"))).toEqual([
      "confirmed-with-passkey {}",
      "confirm-failed {}",
    ]);
    expect((await store.passkey(mine.id))?.passkey.counter).toBe(1);
  });

  it("adds a passkey only after a re-verification, never one the person holds", async () => {
    const first = softPasskey();
    const { staff, asMe } = await enrolled(first);
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
    const add = async (key: typeof first, options: Answer) =>
      ceremonies.completeCeremony("add", key.create(challengeOf(options)), asMe);
    expect(await add(second, options)).toEqual({ ok: true });
    expect((await store.passkeysOf(staff.id)).map((p) => p.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect(await add(second, await ceremonies.ceremonyOptions("add", asMe))).toEqual({
      ok: false,
      message: "That passkey is already registered here.",
    });
    expect((await actions())[0]).toBe("passkey-added {}");
  });
});
