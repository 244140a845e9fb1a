import { describe, expect, it } from "vitest";

import { deriveIdempotencyKey } from "./idempotency.server.ts";
import { normaliseForKey } from "./idempotency.ts";

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
    // Equal apart from the version and variant bits the key sets.
    expect(key.slice(0, 12)).toBe(hex.slice(0, 12));
    expect(key.slice(13, 16)).toBe(hex.slice(13, 16));
    expect(key.slice(17)).toBe(hex.slice(17));
  });
});
