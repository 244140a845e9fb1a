import { once } from "node:events";
import type { AddressInfo } from "node:net";

import express from "express";
import { describe, expect, it } from "vitest";

import { consoleGuards, isConsoleOrigin, SIGN_IN_PER_MINUTE } from "./guards.ts";

describe("the console's origin check", () => {
  const origin = "https://console.clinic.example";

  it("accepts exactly the console's origin", () => {
    expect(isConsoleOrigin(origin, origin)).toBe(true);
  });

  it.each([
    ["no Origin", undefined],
    ["null", "null"],
    ["plain http", "http://console.clinic.example"],
    ["another port", "https://console.clinic.example:8443"],
    ["the public site", "https://www.clinic.example"],
    ["a look-alike", "https://console.clinic.example.evil.test"],
    ["a path after it", "https://console.clinic.example/"],
    ["garbage", "not a url"],
  ])("refuses %s", (_label, value) => {
    expect(isConsoleOrigin(value, origin)).toBe(false);
  });
});

describe("the console's guards in front of an app", () => {
  const origin = "http://localhost:3001";

  async function serve(signedIn: boolean, refused?: (reason: string) => Promise<void>) {
    const app = express();
    for (const guard of consoleGuards({
      consoleOrigin: origin,
      staffOf: () => (signedIn ? { id: "staff-1" } : null),
      refused: refused && ((_req, _res, reason) => refused(reason)),
    })) {
      app.use(guard);
    }
    app.all("/{*splat}", (_req, res) => void res.send("reached"));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const post = (headers: Record<string, string> = { origin }) =>
      fetch(`http://127.0.0.1:${port}/console/passkey`, { method: "POST", headers, body: "{}" });
    return { post, close: () => server.close() };
  }

  it("limits posts without a session, and refuses a post without Origin", async () => {
    const { post, close } = await serve(false);
    try {
      expect((await post({})).status).toBe(403);
      for (let i = 0; i < SIGN_IN_PER_MINUTE; i++) expect((await post()).status).toBe(200);
      expect((await post()).status).toBe(429);
    } finally {
      close();
    }
  });

  it("does not count a signed-in staff member's posts", async () => {
    const { post, close } = await serve(true);
    try {
      for (let i = 0; i <= SIGN_IN_PER_MINUTE; i++) expect((await post()).status).toBe(200);
    } finally {
      close();
    }
  });

  it("hands a refused post to the audit hook, and answers once it has written", async () => {
    const reasons: string[] = [];
    const { post, close } = await serve(true, async (reason) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      reasons.push(reason);
    });
    try {
      const response = await post({ origin: "http://localhost:3000" });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("did not come from the staff console");
      expect(reasons).toEqual(["origin"]);
      expect((await post()).status).toBe(200);
      expect(reasons).toEqual(["origin"]);
    } finally {
      close();
    }
  });
});
