import { describe, expect, it } from "vitest";

import { makeBodyReplayable } from "./replayable-body.ts";

describe("makeBodyReplayable", () => {
  it("returns the same urlencoded body on every read", async () => {
    const body = new URLSearchParams({ name: "Sam", idempotencyKey: "k-1" });
    const request = new Request("http://localhost/register-interest", { method: "POST", body });
    expect(request.headers.get("content-type")).toMatch(/application\/x-www-form-urlencoded/);

    await makeBodyReplayable(request);
    const reads = await Promise.all([request.text(), request.text(), request.text()]);
    expect(reads).toEqual([body.toString(), body.toString(), body.toString()]);
  });

  it("is needed: without it a second read of the body fails", async () => {
    const request = new Request("http://localhost/", { method: "POST", body: "a=1" });
    await request.text();
    await expect(request.text()).rejects.toThrow(TypeError);
  });
});
