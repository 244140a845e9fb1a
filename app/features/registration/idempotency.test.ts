import { describe, expect, it } from "vitest";

import { deriveIdempotencyKey, newIdempotencyKey } from "./idempotency.ts";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const fields = { name: "Sam Carter", email: "Sam@Example.co.uk", phone: null, message: "Hello" };

describe("newIdempotencyKey", () => {
  it("makes a different UUID every time", () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(uuid);
  });
});

describe("deriveIdempotencyKey", () => {
  it("gives the same details the same UUIDv8 key", async () => {
    const first = await deriveIdempotencyKey(fields);
    expect(first).toMatch(uuid);
    expect(first[14]).toBe("8");
    expect(
      await deriveIdempotencyKey({ ...fields, email: "sam@example.co.uk", name: "Sam  Carter" }),
    ).toBe(first);
  });

  it("gives different details different keys", async () => {
    const keys = await Promise.all([
      deriveIdempotencyKey(fields),
      deriveIdempotencyKey({ ...fields, message: null }),
      deriveIdempotencyKey({ ...fields, phone: "07700 900123" }),
      deriveIdempotencyKey({ ...fields, name: "Sam Carte" }),
    ]);
    expect(new Set(keys).size).toBe(4);
  });
});
