import { once } from "node:events";
import type { AddressInfo } from "node:net";

import express from "express";
import { afterEach, describe, expect, it } from "vitest";

import { consoleGuards, isConsoleOrigin, SIGN_IN_PER_MINUTE } from "./guards.ts";

describe("the console's origin check", () => {
  const origin = "https://console.clinic.example";

  it.each([
    ["accepts exactly the console's origin", origin, true],
    ["refuses no Origin", undefined, false],
    ["refuses null", "null", false],
    ["refuses plain http", "http://console.clinic.example", false],
    ["refuses another port", "https://console.clinic.example:8443", false],
    ["refuses the public site", "https://www.clinic.example", false],
    ["refuses a look-alike", "https://console.clinic.example.evil.test", false],
    ["refuses a path after it", "https://console.clinic.example/", false],
    ["refuses garbage", "not a url", false],
  ])("%s", (_label, value, accepted) => {
    expect(isConsoleOrigin(value, origin)).toBe(accepted);
  });
});

describe("the console's guards in front of an app", () => {
  const origin = "http://localhost:3001";
  const servers: { close(): void }[] = [];
  afterEach(() => servers.splice(0).forEach((server) => server.close()));

  async function serve(signedIn: boolean, refused?: (reason: string) => Promise<void>) {
    const app = express();
    app.use(
      consoleGuards({
        consoleOrigin: origin,
        staffOf: () => (signedIn ? { id: "staff-1" } : null),
        refused: refused && ((_req, _res, reason) => refused(reason)),
      }),
    );
    app.all("/{*splat}", (_req, res) => void res.send("reached"));
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    return (headers: Record<string, string> = { origin }) =>
      fetch(`http://127.0.0.1:${port}/console/passkey`, { method: "POST", headers, body: "{}" });
  }

  it("limits posts without a session, and refuses a post without Origin", async () => {
    const post = await serve(false);
    expect((await post({})).status).toBe(403);
    for (let i = 0; i < SIGN_IN_PER_MINUTE; i++) expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(429);
  });

  it("does not count a signed-in staff member's posts", async () => {
    const post = await serve(true);
    for (let i = 0; i <= SIGN_IN_PER_MINUTE; i++) expect((await post()).status).toBe(200);
  });

  it("hands a refused post to the audit hook, and answers once it has written", async () => {
    const reasons: string[] = [];
    const post = await serve(true, async (reason) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      reasons.push(reason);
    });
    const response = await post({ origin: "http://localhost:3000" });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("did not come from the staff console");
    expect(reasons).toEqual(["origin"]);
    expect((await post()).status).toBe(200);
    expect(reasons).toEqual(["origin"]);
  });
});
