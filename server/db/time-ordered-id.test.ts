import { describe, expect, it } from "vitest";

import { timeOrderedId } from "./time-ordered-id.ts";

const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedId", () => {
  it("is a UUIDv7 whose first 48 bits are the time in milliseconds", () => {
    const at = Date.UTC(2026, 10, 24, 9, 30, 15, 123);
    const id = timeOrderedId(at);
    expect(id).toMatch(v7);
    expect(parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(at);
  });

  it("sorts as text in the order of its time, so later rows land at the index's end", () => {
    const times = [1, 255, 256, 1_700_000_000_000, 1_795_500_000_000, 2 ** 48 - 1];
    const ids = times.map((t) => timeOrderedId(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it("differs between ids made in the same millisecond", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedId(1_795_500_000_000)));
    expect(ids.size).toBe(1000);
  });
});
