/**
 * Who may use each console route, route by route from the table in contract/console.ts
 * (docs/decisions/133): without a session, with a viewer's, with a forged origin, with an
 * expired session, with a used or expired invite; the console's headers; and the public
 * listener, which answers 404 for every console path in any spelling.
 */
import { expect } from "@playwright/test";

import { type Access, consoleRoutes } from "../../contract/console.ts";
import {
  ageSession,
  auditDetailsOf,
  consoleFetch,
  consoleURL,
  count,
  seedAnnouncement,
  seedInvite,
  seedStaff,
  seedRegistration,
  sessionExists,
  test,
} from "../support/console.ts";

const routes = Object.entries(consoleRoutes) as [string, { view?: Access; act?: Access }][];
const pages = routes.filter(([, r]) => r.view !== undefined);
const actions = routes.filter(([, r]) => r.act !== undefined);
const signInPage = "/console/sign-in";

const json = (value: unknown) => ({ body: JSON.stringify(value), json: true });
const forgedInvite = "intent=invite&email=forged%40clinic.example&role=manager";
const evil = "http://evil.example";

/** A post each action would accept from its role: nothing is changed by a refused one. */
const sampleBody: Record<string, { body: string; json?: boolean }> = {
  "/console/staff": { body: forgedInvite },
  "/console/sign-out": { body: "" },
  "/console/passkey": json({ intent: "options", kind: "add" }),
  "/console/people": { body: "intent=find&email=forged%40clinic.example" },
  "/console/people/record": { body: "intent=resend" },
  "/console/announcements": { body: "subject=Forged&body=Forged&audience=all" },
  "/console/announcements/draft": { body: "intent=approve" },
};

/**
 * What a page the person may see answers once signed in: the sign-in page sends them on, an
 * enrolment link without its token is gone, and a page that needs a query to show anything
 * answers 404 without one.
 */
const signedInStatus: Record<string, number> = {
  [signInPage]: 302,
  "/console/enrol": 410,
  "/console/announcements/draft": 404,
  "/console/people/download": 404,
};

const post = (path: string, token?: string, body?: string, origin?: string | null) =>
  consoleFetch(path, { method: "POST", token, body, origin });
/** A sample post (form or JSON) to `path`, with a session's token if given. */
const postSample = (path: string, sample: { body: string; json?: boolean }, token?: string) =>
  consoleFetch(path, { method: "POST", token, ...sample });

/** Rows of `table WHERE ...`, e.g. rows("staff_invites WHERE email = ?", email). */
const rows = (from: string, ...params: string[]) =>
  count(`SELECT count(*) AS n FROM ${from}`, ...params);
const invites = (email: string) => rows("staff_invites WHERE email = ?", email);

function expectSignIn(response: Response) {
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(signInPage);
}

for (const [path, route] of pages) {
  test(`GET ${path} (${route.view}) without a session, as a viewer and as a manager`, async () => {
    const response = await consoleFetch(path);
    if (route.view === "public") {
      expect(response.status).toBe(path === "/console/enrol" ? 410 : 200);
    } else {
      expectSignIn(response);
      expect((await consoleFetch(`${path}.data`)).status).toBe(401);
    }
    for (const role of ["viewer", "manager"] as const) {
      const signedIn = await consoleFetch(path, { token: seedStaff(role).token });
      const refused = route.view === "manager" && role === "viewer";
      const expected = refused ? 403 : (signedInStatus[path] ?? 200);
      expect(signedIn.status, role).toBe(expected);
      // Pages say it in words; a download (a resource route) answers the bare refusal.
      if (refused && signedIn.headers.get("content-type")?.includes("html"))
        expect(await signedIn.text()).toContain("Not for your role");
    }
  });
}

test.describe("without a session", () => {
  for (const [path, route] of actions.filter(([, r]) => r.act !== "public")) {
    test(`POST ${path} (${route.act})`, async () => {
      const sample = sampleBody[path] ?? { body: "" };
      expectSignIn(await postSample(path, sample));
      expect((await postSample(`${path}.data`, sample)).status).toBe(401);
      expect(invites("forged@clinic.example")).toBe(0);
    });
  }

  test("POST /console/passkey to add a passkey is 401", async () => {
    const sample = sampleBody["/console/passkey"]!;
    expect((await postSample("/console/passkey", sample)).status).toBe(401);
  });

  test("an unknown console path goes to the sign-in page, not a 404 that maps the console; a manager gets the 404", async () => {
    expectSignIn(await consoleFetch("/console/no-such-page"));
    const manager = seedStaff("manager");
    const missing = await consoleFetch("/console/no-such-page", { token: manager.token });
    expect(missing.status).toBe(404);
  });
});

test.describe("with a viewer's session", () => {
  for (const [path] of actions.filter(([, r]) => r.act === "manager")) {
    test(`POST ${path} (manager) is 403 and changes nothing`, async () => {
      const viewer = seedStaff("viewer");
      const target = seedStaff("viewer", "target");
      for (const body of [
        forgedInvite,
        `intent=role&id=${target.id}&role=manager`,
        `intent=remove&id=${target.id}`,
      ]) {
        expect((await post(path, viewer.token, body)).status, body).toBe(403);
      }
      expect(invites("forged@clinic.example")).toBe(0);
      const unchanged = "staff WHERE id = ? AND role = 'viewer' AND removed_at IS NULL";
      expect(rows(unchanged, target.id)).toBe(1);
      expect(sessionExists(target.token)).toBe(true);
      expect(auditDetailsOf(viewer.id, "request-refused")).toEqual(
        Array(3).fill({ route: path, method: "POST", reason: "role" }),
      );
    });
  }
});

test("a viewer gets 403 for every People action and path, and nothing is looked up, sent or erased", async () => {
  const viewer = seedStaff("viewer");
  const id = seedRegistration("viewer-target@example.co.uk");
  for (const [path, body] of [
    ["/console/people", "intent=find&email=viewer-target%40example.co.uk"],
    [`/console/people/record?id=${id}`, "intent=resend"],
    [`/console/people/record?id=${id}`, "intent=erase&email=viewer-target%40example.co.uk"],
  ] as const) {
    expect((await post(path, viewer.token, body)).status, `${path} ${body}`).toBe(403);
    const data = path.replace("?", ".data?").replace(/people$/, "people.data");
    expect((await post(data, viewer.token, body)).status, `${path}.data ${body}`).toBe(403);
  }
  for (const path of [
    `/console/people/record?id=${id}`,
    `/console/people/copy?id=${id}`,
    `/console/people/download?id=${id}`,
    "/console/people/export",
  ]) {
    const response = await consoleFetch(path, { token: viewer.token });
    expect(response.status, path).toBe(403);
    expect(await response.text(), path).not.toContain("viewer-target");
  }
  expect(rows("registrations WHERE id = ?", id)).toBe(1);
  expect(rows("outbox WHERE registration_id = ? AND topic = 'confirmation'", id)).toBe(0);
  // Each refusal, and nothing else, is in the audit trail: who, which route, why; no address.
  const refusals = auditDetailsOf(viewer.id, "request-refused");
  expect(rows("audit_trail WHERE staff_id = ?", viewer.id)).toBe(refusals.length);
  expect(refusals).toHaveLength(10);
  for (const detail of refusals) {
    expect(Object.keys(detail).sort()).toEqual(["method", "reason", "route"]);
    expect(detail.reason).toBe("role");
    expect(String(detail.route)).toMatch(/^\/console\/people(\/(record|copy|download|export))?$/);
  }
  const trail = JSON.stringify(refusals);
  expect(trail).not.toContain("viewer-target");
  expect(trail).not.toContain(id);
  expect(trail).not.toMatch(/127\.0\.0\.1|::1/);
});

test("with a viewer's session every announcement page and step is 403 and changes nothing (decision 136)", async () => {
  const viewer = seedStaff("viewer");
  const author = seedStaff("manager", "author");
  const steps = ["submit&acknowledged=yes", "reopen", "approve", "send", "withdraw", "test"];
  for (const state of ["draft", "submitted", "approved"]) {
    const id = seedAnnouncement(author, { state });
    const draft = `/console/announcements/draft?id=${id}`;
    for (const path of [draft, draft.replace("?", ".data?")])
      expect((await consoleFetch(path, { token: viewer.token })).status, path).toBe(403);
    for (const intent of [...steps, "edit&subject=Forged&body=Forged&audience=all"]) {
      const response = await post(draft, viewer.token, `intent=${intent}`);
      expect(response.status, `${state} ${intent}`).toBe(403);
    }
    const unchanged = "announcement_drafts WHERE id = ? AND state = ? AND subject != 'Forged'";
    expect(rows(unchanged, id, state)).toBe(1);
  }
  const composed = sampleBody["/console/announcements"]?.body;
  expect((await post("/console/announcements", viewer.token, composed)).status).toBe(403);
  expect(rows("announcement_drafts WHERE subject = 'Forged'")).toBe(0);
  expect(rows("outbox WHERE topic = 'announcement'")).toBe(0);
});

test.describe("with a manager's session", () => {
  test("a forged cross-origin POST, or one without Origin, is refused and changes nothing; without a session it is logged, not written to the audit trail", async () => {
    // Failed sign-ins and refused enrolments, which other specs make meanwhile, are audited without a staff member too.
    const anonymous = () =>
      rows(
        "audit_trail WHERE staff_id IS NULL AND action NOT IN ('sign-in-failed', 'enrol-refused')",
      );
    const before = anonymous();
    expect((await post("/console/staff", undefined, forgedInvite, evil)).status).toBe(403);
    expect(anonymous()).toBe(before);
    const manager = seedStaff("manager");
    for (const origin of [
      evil,
      "http://127.0.0.1:1",
      "null",
      consoleURL.replace("http:", "https:"),
      null,
    ]) {
      for (const path of ["/console/staff", "/CONSOLE/Staff", "/console/staff.data"]) {
        const response = await post(path, manager.token, forgedInvite, origin);
        expect(response.status, `${path} from ${String(origin)}`).toBe(403);
      }
    }
    const signOut = await post("/console/sign-out", manager.token, undefined, evil);
    expect(signOut.status).toBe(403);
    expect(sessionExists(manager.token)).toBe(true);
    expect(invites("forged@clinic.example")).toBe(0);
    // Each is audited under the manager whose browser sent it, without the forged origin.
    const refused = (route: string) => ({ route, method: "POST", reason: "origin" });
    const refusals = auditDetailsOf(manager.id, "request-refused");
    expect(refusals).toHaveLength(16);
    expect(refusals.at(-1)).toEqual(refused("/console/sign-out"));
    expect(new Set(refusals.slice(0, -1).map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify(refused("/console/staff"))]),
    );
  });

  test("removing a person ends their session at once, and is audited without a registrant", async () => {
    const manager = seedStaff("manager");
    const target = seedStaff("viewer", "removed");
    const response = await post("/console/staff", manager.token, `intent=remove&id=${target.id}`);
    expect(response.status).toBe(200);
    expect(sessionExists(target.token)).toBe(false);
    expect((await consoleFetch("/console", { token: target.token })).status).toBe(302);
    const audited =
      "audit_trail WHERE action = 'staff-removed' AND staff_id = ? AND registration_id IS NULL";
    expect(rows(audited, manager.id)).toBe(1);
  });
});

test.describe("a method a route does not answer", () => {
  for (const [path, route] of routes) {
    const method = route.view === undefined ? "GET" : route.act === undefined ? "POST" : null;
    if (method === null) continue;
    test(`${method} ${path} is a plain 405 with Allow, and nothing runs`, async () => {
      const manager = seedStaff("manager");
      for (const spelling of [path, `${path}.data`, `${path.toUpperCase()}/`]) {
        const response = await consoleFetch(spelling, {
          method,
          token: manager.token,
          body: method === "POST" ? "intent=x" : undefined,
        });
        expect(response.status, spelling).toBe(405);
        expect(response.headers.get("allow"), spelling).toBe(route.view ? "GET, HEAD" : "POST");
        const text = await response.text();
        expect(text, spelling).toContain(
          "This console address does not take that kind of request.",
        );
        expect(text, spelling).not.toContain("Unexpected Server Error");
      }
      expect(rows("audit_trail WHERE staff_id = ?", manager.id)).toBe(0);
    });
  }
});

test.describe("expired sessions", () => {
  const minutes = (n: number) => new Date(Date.now() - n * 60_000);
  // Created and last seen so many minutes ago; the session still works or not.
  for (const [label, created, seen, works] of [
    ["30 minutes idle", 45, 31, false],
    ["12 hours old, though active", 12 * 60 + 1, 0, false],
    ["29 minutes idle still works", 40, 29, true],
  ] as const) {
    test(label, async () => {
      const manager = seedStaff("manager");
      ageSession(manager.token, { createdAt: minutes(created), lastSeenAt: minutes(seen) });
      const response = await consoleFetch(works ? "/console" : "/console/staff", {
        token: manager.token,
      });
      if (works) expect(response.status).toBe(200);
      else expectSignIn(response);
      expect(sessionExists(manager.token)).toBe(works);
    });
  }
});

test.describe("invites", () => {
  for (const [label, options] of [
    ["used", { used: true }],
    ["expired", { expiresAt: new Date(Date.now() - 1000) }],
  ] as const) {
    test(`a ${label} invite shows no ceremony and gets no challenge`, async () => {
      const invite = seedInvite("manager", options);
      const page = await consoleFetch(`/console/enrol?token=${invite.token}`);
      expect(page.status).toBe(410);
      const html = await page.text();
      expect(html).toContain("This invitation cannot be used");
      expect(html).not.toContain("data-passkey");
      const enrol = json({ intent: "options", kind: "enrol", invite: invite.token });
      const challenge = await postSample("/console/passkey", enrol);
      expect(challenge.status).toBe(400);
      expect(await challenge.json()).toEqual({
        ok: false,
        message: "This invitation link has expired or was used.",
      });
    });
  }
});

test("malformed posts get a plain 4xx, never a 500", async () => {
  const manager = seedStaff("manager");
  const cases: [string, { body: string; json?: boolean }][] = [
    ["/console/staff", { body: "{}", json: true }],
    ["/console/staff", { body: "intent=role&id=x&role=owner" }],
    ["/console/staff", { body: "intent=invite&email=not-an-address&role=viewer" }],
    ["/console/passkey", { body: "{not json", json: true }],
    ["/console/passkey", { body: "intent=options&kind=sign-in" }],
    ["/console/passkey", json({ intent: "verify", kind: "add", response: 42 })],
    [
      "/console/passkey",
      json({ intent: "verify", kind: "enrol", invite: "x", response: { id: "x", response: {} } }),
    ],
  ];
  for (const [path, request] of cases) {
    const response = await postSample(path, request, manager.token);
    expect(response.status, `${path} ${request.body}`).toBe(400);
  }
  const page = await consoleFetch("/console/audit?page=abc", { token: manager.token });
  expect(page.status).toBe(404);
});

test("a sign-in with an unknown passkey is refused and audited", async () => {
  const failures = () => rows("audit_trail WHERE action = 'sign-in-failed'");
  const before = failures();
  const response = await postSample(
    "/console/passkey",
    json({
      intent: "verify",
      kind: "sign-in",
      response: { id: "bm90LWEta2V5", rawId: "bm90LWEta2V5", type: "public-key", response: {} },
    }),
  );
  expect(response.status).toBe(401);
  // Not exactly one more: console-passkeys' revoked colleague fails to sign in at the same time.
  expect(failures()).toBeGreaterThan(before);
});

test("every console answer is uncached, unindexed, unframed and under a strict CSP", async () => {
  const manager = seedStaff("manager");
  for (const [path, token] of [
    ["/console/sign-in", undefined],
    ["/console", manager.token],
    ["/console/staff", manager.token],
    ["/console/no-such-page", manager.token],
    ["/", undefined],
  ] as const) {
    const response = await consoleFetch(path, { token });
    expect(response.headers.get("cache-control"), path).toBe("no-store");
    expect(response.headers.get("x-robots-tag"), path).toBe("noindex");
    const csp = response.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "base-uri 'none'",
      "script-src-attr 'none'",
    ]) {
      expect(csp, path).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toMatch(/script-src 'self' 'nonce-[\w+/=]+';/);
  }
});

test("the console listener serves no public page", async () => {
  const root = await consoleFetch("/");
  expect(root.status).toBe(303);
  expect(root.headers.get("location")).toBe("/console");
  for (const path of [
    "/team",
    "/register-interest",
    "/register-interest/thank-you",
    "/sitemap.xml",
    "/consoles",
  ]) {
    const response = await consoleFetch(path);
    expect(response.status, path).toBe(404);
    expect(await response.text(), path).not.toContain("Register Your Interest");
  }
});

test.describe("the public listener", () => {
  const spellings = (path: string) => [
    path,
    path.toUpperCase(),
    `${path}/`,
    `${path}.data`,
    path.replace("/console", "/%63onsole"),
    path.replace("/console", "/Console"),
  ];
  for (const [path] of routes) {
    test(`answers 404 for ${path} in every spelling`, async ({ request }) => {
      for (const spelling of spellings(path)) {
        const response = await request.get(spelling, { maxRedirects: 0 });
        expect(response.status(), spelling).toBe(404);
        expect(await response.text(), spelling).not.toContain("Staff console");
      }
      const post = await request.post(path, { form: { intent: "invite" }, maxRedirects: 0 });
      expect([404, 405], `POST ${path}`).toContain(post.status());
    });
  }
});
