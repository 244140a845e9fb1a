import { randomUUID } from "node:crypto";

import { expect, test } from "@playwright/test";

import { freshPostgresSchema } from "../../scripts/lib/postgres.ts";
import {
  formBody,
  inParallel,
  newRegistration,
  postgresRows,
  type StoredRow,
  sqliteRows,
} from "../../scripts/lib/registrations.ts";
import {
  type Caddy,
  httpsFetch,
  type HttpsResult,
  startCaddy,
  type ServerProcess,
  startServer,
} from "../../scripts/lib/server-process.ts";
import { type FakeSpreadsheet, startFakeSpreadsheet } from "../support/fake-spreadsheet.ts";
import { seedConsent } from "../support/site.ts";

/**
 * The production shape: Caddy (the shipped deploy/Caddyfile) terminating TLS with a
 * certificate made at start-up, in front of two app servers sharing PostgreSQL and a
 * Redis rate limit (docs/decisions/068-070). TEST_DATABASE_URL and TEST_REDIS_URL name
 * the servers (CI sets both).
 */

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const PARTNER = "https://partner.example";
/** The header that makes a post the island's, answered as JSON; without it, the plain form's. */
const asIsland = { accept: "application/json" };

test.describe.configure({ mode: "serial" });

async function startStack(env: Record<string, string>) {
  const schema = await freshPostgresSchema(databaseUrl ?? "");
  const servers: ServerProcess[] = [];
  const stopServers = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await schema.drop();
  };
  // One site, one allowance: every instance counts under the same Redis prefix.
  const keyPrefix = `e2e-${randomUUID()}:`;
  try {
    for (let i = 0; i < 2; i += 1) {
      const shared = { REDIS_URL: redisUrl ?? "", REDIS_KEY_PREFIX: keyPrefix, TRUST_PROXY: "1" };
      servers.push(await startServer({ env: { DATABASE_URL: schema.url, ...shared, ...env } }));
    }
    const caddy = await startCaddy(servers.map((s) => `127.0.0.1:${s.port}`));
    const drop = async () => {
      await caddy.stop();
      await stopServers();
    };
    return { caddy, servers, databaseUrl: schema.url, drop };
  } catch (error) {
    await stopServers();
    throw error;
  }
}

/** Registration POSTs each instance answered, from its JSON request log. */
function postsServed(server: ServerProcess): number {
  return server.output.filter(
    (line) =>
      line.includes('"request"') && line.includes('"POST"') && line.includes("/register-interest"),
  ).length;
}

function post(caddy: Caddy, body: string, headers: Record<string, string> = {}) {
  return httpsFetch(`${caddy.origin}/register-interest`, caddy.ca, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: caddy.origin,
      ...headers,
    },
    body,
  });
}

function withEmail(rows: StoredRow[], email: string) {
  return rows.filter((row) => row.email === email);
}

test.describe("behind a TLS proxy, two app servers on PostgreSQL", () => {
  test.skip(!databaseUrl || !redisUrl, "TEST_DATABASE_URL and TEST_REDIS_URL are not set");
  let stack: Awaited<ReturnType<typeof startStack>>;
  let spreadsheet: FakeSpreadsheet;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    spreadsheet = await startFakeSpreadsheet();
    stack = await startStack({ ALLOWED_ORIGINS: PARTNER, ...spreadsheet.env });
  });
  test.afterAll(async () => {
    await stack?.drop();
    await spreadsheet?.close();
  });

  test("Chromium loads the page over TLS with the CSP, and registers with and without JavaScript", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const emails: string[] = [];
    for (const mode of ["js", "nojs"]) {
      const email = `proxy-${mode}-${randomUUID()}@example.co.uk`;
      emails.push(email);
      const javaScriptEnabled = mode === "js";
      const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled });
      await seedConsent(context);
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") violations.push(m.text());
      });
      const response = await page.goto(`${stack.caddy.origin}/register-interest`);
      expect(response?.status()).toBe(200);
      const headers = response?.headers() ?? {};
      expect(headers["content-security-policy"]).toContain("script-src");
      expect(headers.server).toBeUndefined();
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      if (javaScriptEnabled) await expect(page.locator("form[novalidate]")).toHaveCount(1);

      const posts: string[] = [];
      page.on("response", (r) => {
        if (r.request().method() === "POST")
          posts.push(`${new URL(r.url()).pathname} ${r.status()}`);
      });
      await page.getByLabel("Full name").fill("Sam Proxy");
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Register Interest" }).click();
      await expect(page.getByRole("heading", { name: "Thank you for registering" })).toBeVisible({
        timeout: 15_000,
      });
      expect(posts).toEqual([`/register-interest ${javaScriptEnabled ? 200 : 303}`]);
      expect(violations.filter((v) => /Content Security Policy|Refused to/i.test(v))).toEqual([]);
      await context.close();
    }
    const rows = await postgresRows(stack.databaseUrl);
    for (const email of emails) expect(withEmail(rows, email), email).toHaveLength(1);
  });

  // Every answer of the app. (A malformed escape such as /%E0%A4%A is refused by Caddy
  // itself, before the app, with a bare 400.)
  test("every answer through Caddy carries HSTS and upgrade-insecure-requests", async () => {
    const get = (path: string) => httpsFetch(`${stack.caddy.origin}${path}`, stack.caddy.ca);
    // Content pages ship no module script (decision 105): take one from the form's page.
    const asset = /\/assets\/[\w.-]+\.js/.exec((await get("/register-interest")).body)?.[0] ?? "";
    expect(asset).not.toBe("");
    const answers: [string, HttpsResult][] = [];
    for (const path of [
      "/",
      "/register-interest",
      "/pricing?treatment=sustanon",
      "/this-page-does-not-exist",
      asset,
      "/favicon.svg",
      "/healthz",
    ])
      answers.push([`GET ${path}`, await get(path)]);
    const empty = new URLSearchParams({ fullName: "", email: "" }).toString();
    answers.push(["POST /register-interest (empty)", await post(stack.caddy, empty)]);
    for (const [what, answer] of answers) {
      expect
        .soft(answer.headers["strict-transport-security"], what)
        .toBe("max-age=63072000; includeSubDomains");
      expect
        .soft(answer.headers["content-security-policy"], what)
        .toContain("upgrade-insecure-requests");
    }
  });

  test("an ALLOWED_ORIGINS origin succeeds on both paths; a foreign origin is refused and nothing stored", async () => {
    const accepted = [newRegistration("proxy-partner"), newRegistration("proxy-partner")];
    const refused = [newRegistration("proxy-foreign"), newRegistration("proxy-foreign")];
    for (const [i, headers] of [{}, asIsland].entries()) {
      const ok = await post(stack.caddy, formBody(accepted[i]!), { ...headers, origin: PARTNER });
      expect(ok.status, `${PARTNER} ${i}`).toBe(200);
      const foreign = { ...headers, origin: "https://evil.example" };
      const no = await post(stack.caddy, formBody(refused[i]!), foreign);
      expect(no.status, `foreign ${i}`).toBe(403);
    }
    const rows = await postgresRows(stack.databaseUrl);
    for (const r of accepted) expect(withEmail(rows, r.email)).toHaveLength(1);
    for (const r of refused) expect(withEmail(rows, r.email)).toHaveLength(0);
  });

  test("a burst of 2,000 registrations over both servers is stored once each, and each is forwarded once", async () => {
    test.setTimeout(480_000);
    const before = stack.servers.map(postsServed);
    const registrations = Array.from({ length: 2_000 }, () => newRegistration("proxy-burst"));
    const statuses: Record<number, number> = {};
    await inParallel(registrations, 32, async (r, i) => {
      // Four in five as the JavaScript form sends them, one in five without JavaScript.
      const res = await post(stack.caddy, formBody(r), i % 5 !== 0 ? asIsland : {});
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    });
    expect(statuses).toEqual({ 200: 2_000 });

    const rows = await postgresRows(stack.databaseUrl);
    const burst = rows.filter((r) => r.email.startsWith("proxy-burst-"));
    expect(burst).toHaveLength(2_000);
    expect(new Set(burst.map((r) => r.email)).size).toBe(2_000);
    // Caddy spread the burst over both instances.
    const served = stack.servers.map((s, i) => postsServed(s) - (before[i] ?? 0));
    for (const n of served) expect(n).toBeGreaterThan(500);

    // Both instances run an outbox worker; each row reaches the spreadsheet once.
    const ids = burst.map((r) => r.id);
    await expect
      .poll(() => ids.filter((id) => spreadsheet.rows.has(id)).length, {
        timeout: 120_000,
        intervals: [500],
      })
      .toBe(2_000);
    expect(ids.filter((id) => spreadsheet.attempts(id) !== 1)).toEqual([]);
  });
});

test.describe("the rate limit behind the proxy", () => {
  test.skip(!databaseUrl || !redisUrl, "TEST_DATABASE_URL and TEST_REDIS_URL are not set");

  test("holds across two instances: 5 a minute, 10 posts spread over both, exactly 5 accepted", async () => {
    test.setTimeout(180_000);
    const stack = await startStack({ RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const body = formBody(newRegistration("proxy-limit"));
        statuses.push((await post(stack.caddy, body, i % 2 === 1 ? asIsland : {})).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      // Both instances answered some of them: the limit was shared, not per process.
      for (const server of stack.servers) expect(postsServed(server)).toBeGreaterThan(0);
      const rows = await postgresRows(stack.databaseUrl);
      expect(rows.filter((r) => r.email.startsWith("proxy-limit-"))).toHaveLength(5);
    } finally {
      await stack.drop();
    }
  });
});

test.describe("behind a TLS proxy with default settings", () => {
  test("one server on SQLite, no TRUST_PROXY: the https page's POSTs are refused, and the log says why", async () => {
    test.setTimeout(120_000);
    const server = await startServer({ env: { TRUST_PROXY: "" } });
    const caddy = await startCaddy([`127.0.0.1:${server.port}`]);
    try {
      // Without a trusted proxy the request is plain http, and an https Origin is
      // another origin (docs/decisions/131): the site needs TRUST_PROXY=1 behind Caddy.
      const sent = [newRegistration("proxy-default"), newRegistration("proxy-default")];
      for (const [i, accept] of ["text/html", "application/json"].entries()) {
        const res = await post(caddy, formBody(sent[i]!), { accept });
        expect(res.status, accept).toBe(403);
      }
      const rows = sqliteRows(server.dataDir);
      for (const r of sent) expect(withEmail(rows, r.email)).toHaveLength(0);
      await expect
        .poll(() => server.output.filter((line) => line.includes("set TRUST_PROXY")).length)
        .toBe(2);
      // Every line the server wrote is JSON (express-rate-limit's warnings included).
      for (const line of server.output)
        expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    } finally {
      await caddy.stop();
      await server.stop();
    }
  });
});
