import { describe, expect, it } from "vitest";

import { allowedMethods, consoleRouteOf, fromTheConsole, gate } from "./route-gate.ts";
import { type ConsoleRoute, consoleRoutes } from "../../contract/console.ts";

describe("the console route a path is served by", () => {
  it.each([
    ["/console/people/export", "/console/people/export"],
    ["/CONSOLE/People/Export", "/console/people/export"],
    ["/console/people/%65xport", "/console/people/export"],
    ["/console/people/export/", "/console/people/export"],
    ["/console/people/export.data", "/console/people/export"],
    ["/console/people/export/_.data", "/console/people/export"],
    ["/console/people/record.data", "/console/people/record"],
    ["/console", "/console"],
    ["/console.data", "/console"],
    ["/console/", "/console"],
    ["/console/no-such-page", null],
    ["/console/people/export/more", null],
    ["/console/people%2Fexport", null],
  ])("%s is %s", (path, route) => {
    expect(consoleRouteOf(path)).toBe(route);
  });
});

describe("Fetch Metadata on a read of a person", () => {
  it.each([
    [undefined, true],
    ["same-origin", true],
    ["none", true],
    ["same-site", false],
    ["cross-site", false],
    ["same-origin, cross-site", false],
    ["", false],
  ])("Sec-Fetch-Site %s: %s", (value, allowed) => {
    expect(fromTheConsole(value)).toBe(allowed);
  });
});

describe("the gate before React Router", () => {
  const record = consoleRoutes["/console/people/record"];
  type Role = Parameters<typeof gate>[0]["role"];
  const ask = (route: ConsoleRoute, method: string, site: string | undefined, role: Role) =>
    gate({ route, method, secFetchSite: site, role });

  const method = (...allow: string[]) => ({ kind: "method", allow });
  const [pass, fetchSite] = [{ kind: "pass" }, { kind: "fetch-site" }];
  // Only a read of a person from another origin is refused, whoever asks: a post has its
  // own origin check (guards.ts).
  it.each([
    ["/console/people/export", "POST", "same-origin", "manager", method("GET", "HEAD")],
    ["/console/passkey", "GET", "same-origin", "manager", method("POST")],
    ["/console/people/export", "GET", "same-site", "manager", fetchSite],
    ["/console/people/export", "HEAD", "same-site", "manager", fetchSite],
    ["/console/people/export", "GET", "same-site", "viewer", fetchSite],
    ["/console/people/export", "HEAD", "same-site", "viewer", fetchSite],
    ["/console/people/export", "GET", "same-site", null, fetchSite],
    ["/console/people/export", "HEAD", "same-site", null, fetchSite],
    ["/console/people", "GET", "cross-site", "manager", pass],
    ["/console/people/record", "POST", "same-site", "manager", pass],
    ["/console/people/record", "GET", undefined, "manager", pass],
  ] as const)("%s %s, Sec-Fetch-Site %s, as %s: %o", (path, verb, site, role, verdict) => {
    expect(ask(consoleRoutes[path], verb, site, role)).toEqual(verdict);
  });

  it("answers each route's methods only", () => {
    expect(allowedMethods(record)).toEqual(["GET", "HEAD", "POST"]);
  });

  it("takes every route's access from its row, for each role and method", () => {
    const verdict = { public: "pass", viewer: "sign-in", manager: "sign-in" } as const;
    for (const [path, route] of Object.entries<ConsoleRoute>(consoleRoutes)) {
      for (const [method, needs] of [
        ["GET", route.view],
        ["POST", route.act],
      ] as const) {
        if (needs === undefined) continue;
        const kind = (role: Role) => ask(route, method, "same-origin", role).kind;
        expect(kind(null), `${method} ${path} without a session`).toBe(verdict[needs]);
        expect(kind("viewer"), `${method} ${path} as a viewer`).toBe(
          needs === "manager" ? "role" : "pass",
        );
        expect(kind("manager"), `${method} ${path} as a manager`).toBe("pass");
      }
    }
  });

  it("marks exactly the reads of a person or of everyone as personal", () => {
    const personal = Object.entries(consoleRoutes)
      .filter(([, route]) => "personal" in route)
      .map(([path]) => path);
    expect(personal.sort()).toEqual([
      "/console/people/copy",
      "/console/people/download",
      "/console/people/export",
      "/console/people/record",
    ]);
  });
});
