import { describe, expect, it, vi } from "vitest";

import { normaliseForKey } from "./form.ts";
import { deriveIdempotencyKey, handleRegistration } from "./register.server.ts";
import type {
  NewRegistration,
  RegisterResult,
  RegistrationService,
} from "../../../contract/registrations.ts";
import { consentWordings, currentConsentVersion } from "../../content/registration.ts";

/** Links are not this module's business: they answer "invalid". */
const linkStubs = {
  confirm: () => Promise.resolve({ kind: "invalid" as const }),
  checkUnsubscribe: () => Promise.resolve({ kind: "invalid" as const }),
  unsubscribe: () => Promise.resolve({ kind: "invalid" as const }),
  checkConfirm: () => Promise.resolve({ kind: "invalid" as const }),
  rejoin: () => Promise.resolve({ kind: "invalid" as const }),
};

/** An in-memory stand-in with the storage contract's idempotency behaviour. */
function memoryRegistrations() {
  const rows = new Map<string, NewRegistration>();
  const service: RegistrationService = {
    register(input) {
      const existing = rows.get(input.idempotencyKey);
      const kind: RegisterResult["kind"] = existing ? "duplicate" : "created";
      if (!existing) rows.set(input.idempotencyKey, input);
      const { consent, ...fields } = existing ?? input;
      const registration = {
        ...fields,
        id: `id-${input.idempotencyKey}`,
        receivedAt: "2025-01-01T00:00:00.000Z",
        consent: { ...consent, at: "2025-01-01T00:00:00.000Z" },
        confirmedAt: null,
        unsubscribedAt: null,
      };
      return Promise.resolve({ kind, registration });
    },
    ...linkStubs,
  };
  return { rows, service };
}

const person = {
  name: "  Sam Carter ",
  email: "sam@example.co.uk",
  phone: "",
  message: "",
  website: "",
};
/** The person's details as stored, trimmed, with empty fields as null. */
const cleaned = { name: "Sam Carter", email: "sam@example.co.uk", phone: null, message: null };
const key = "0f8fad5b-d9cb-469f-a165-70867728950e";
/** The form as the JavaScript path sends it, with its idempotency key. */
const keyed = { ...person, idempotencyKey: key };
/** What the action logs for a registration: no personal data. */
const logged = (outcome: string) => [{ outcome, registrationId: `id-${key}` }, "registration"];
const thankYou = "/register-interest/thank-you";

/** Posts `fields` to the action as a form. */
const submit = (fields: Record<string, string>, service: RegistrationService, info = vi.fn()) =>
  handleRegistration(new URLSearchParams(fields), service, { info });

/** Built here, not imported: the action must recognise the error by name across bundles. */
class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}
const failing = (error: Error): RegistrationService => ({
  register: () => Promise.reject(error),
  ...linkStubs,
});

describe("handleRegistration", () => {
  it("stores a valid registration with its key and client timestamp, logging no personal data", async () => {
    const { rows, service } = memoryRegistrations();
    const log = vi.fn();
    const timestamp = "2025-02-01T10:00:00.000Z";
    const outcome = await submit({ ...keyed, clientTimestamp: timestamp }, service, log);
    expect(outcome).toEqual({ result: { status: "success" }, status: 200 });
    expect([...rows.values()]).toEqual([
      {
        ...cleaned,
        clientTimestamp: timestamp,
        idempotencyKey: key,
        consent: { version: currentConsentVersion, wantsUpdates: false },
        attribution: null,
      },
    ]);
    expect(log).toHaveBeenCalledWith(...logged("created"));
    expect(JSON.stringify(log.mock.calls)).not.toMatch(/Sam|example/);
  });

  it("records the consent wording shown and the optional box; an unknown version stores the current one", async () => {
    const { rows, service } = memoryRegistrations();
    await submit({ ...keyed, updates: "yes", consentVersion: "2026-11-23" }, service);
    await submit({ ...person, email: "kim@example.com", consentVersion: "1999-01-01" }, service);
    expect([...rows.values()].map((r) => r.consent)).toEqual([
      { version: "2026-11-23", wantsUpdates: true },
      { version: currentConsentVersion, wantsUpdates: false },
    ]);
    expect(consentWordings[currentConsentVersion].text).toMatch(/once more when we open/);
  });

  it("redirects a form posted without JavaScript (no key) to the thank-you page with 303; the JavaScript path gets data", async () => {
    const { service } = memoryRegistrations();
    const noJs = await submit(person, service);
    expect(noJs).toEqual({ result: { status: "success" }, status: 200, redirectTo: thankYou });
    expect((await submit(keyed, service)).redirectTo).toBeUndefined();
    // An invalid form is shown again, never redirected, with the box as it was.
    const invalid = await submit({ ...person, email: "sam@", updates: "yes" }, service);
    expect(invalid).toMatchObject({ status: 400, result: { wantsUpdates: true } });
    expect(invalid.redirectTo).toBeUndefined();
  });

  it("answers a replayed submission as a success without a second row", async () => {
    const { rows, service } = memoryRegistrations();
    const log = vi.fn();
    await submit(keyed, service, log);
    const again = await submit(keyed, service, log);
    expect(again.result).toEqual({ status: "success" });
    expect(rows.size).toBe(1);
    expect(log).toHaveBeenLastCalledWith(...logged("duplicate"));
  });

  it("derives the key from the details when the form came without one (no JavaScript)", async () => {
    const { rows, service } = memoryRegistrations();
    await submit(person, service);
    await submit({ ...person, idempotencyKey: "not-a-uuid" }, service);
    expect(rows.size).toBe(1);
    const [stored] = rows.values();
    expect(stored?.idempotencyKey).toBe(await deriveIdempotencyKey(cleaned));
    expect(stored?.clientTimestamp).toBeNull();
  });

  it("answers 400 with the values and a message per field", async () => {
    const { rows, service } = memoryRegistrations();
    const outcome = await submit({ ...person, email: "sam@", phone: "call me" }, service);
    expect(outcome.status).toBe(400);
    expect(outcome.result).toMatchObject({
      status: "invalid",
      values: { name: "  Sam Carter ", email: "sam@", phone: "call me" },
      fieldErrors: {
        email: expect.stringMatching(/valid email/),
        phone: expect.stringMatching(/phone number/),
      },
    });
    expect(rows.size).toBe(0);
  });

  it("answers a filled honeypot like a success and stores nothing", async () => {
    const { rows, service } = memoryRegistrations();
    const outcome = await submit({ ...person, website: "https://spam.example" }, service);
    expect(outcome).toEqual({ result: { status: "success" }, status: 200, redirectTo: thankYou });
    expect(rows.size).toBe(0);
  });

  it("answers 503 with Retry-After when the database is unavailable", async () => {
    const down = failing(new StorageUnavailableError("database unreachable"));
    const outcome = await submit(person, down);
    expect(outcome.status).toBe(503);
    expect(outcome.headers).toEqual({ "Retry-After": "5" });
    expect(outcome.result).toMatchObject({
      status: "unavailable",
      values: { name: "  Sam Carter " },
    });
  });

  it("lets unexpected errors through, so they are reported as 500", async () => {
    await expect(submit(person, failing(new Error("bug")))).rejects.toThrow("bug");
  });
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const fields = { name: "Sam Carter", email: "Sam@Example.co.uk", phone: null, message: "Hello" };

describe("deriveIdempotencyKey", () => {
  it("gives the same details the same UUIDv8 key", () => {
    const first = deriveIdempotencyKey(fields);
    expect(first).toMatch(uuid);
    expect(first[14]).toBe("8");
    expect(
      deriveIdempotencyKey({ ...fields, email: "sam@example.co.uk", name: "Sam  Carter" }),
    ).toBe(first);
  });

  it("gives different details different keys", () => {
    const keys = [
      deriveIdempotencyKey(fields),
      deriveIdempotencyKey({ ...fields, message: null }),
      deriveIdempotencyKey({ ...fields, phone: "07700 900123" }),
      deriveIdempotencyKey({ ...fields, name: "Sam Carte" }),
    ];
    expect(new Set(keys).size).toBe(4);
  });

  it("gives the key the earlier WebCrypto version gave, so a resend across an upgrade stays one row", async () => {
    const digest = new Uint8Array(
      await crypto.subtle.digest(
        "SHA-256",
        new TextEncoder().encode(`registration-v1:${normaliseForKey(fields)}`),
      ),
    );
    const hex = Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
    const key = deriveIdempotencyKey(fields).replaceAll("-", "");
    // Equal apart from the version and variant bits the key sets (hex digits 12 and 16).
    const unversioned = (h: string) => [h.slice(0, 12), h.slice(13, 16), h.slice(17)];
    expect(unversioned(key)).toEqual(unversioned(hex));
  });
});
