import { request as httpRequest } from "node:http";

import { type APIResponse, type Page, type Response, expect, test } from "@playwright/test";

import { registrationsCli } from "../../scripts/lib/registrations.ts";
import { startServer } from "../../scripts/lib/server-process.ts";
import {
  type Registrant,
  confirmPath,
  daysAgo,
  registerSomeone,
  showRegistrations,
  unsubscribePath,
} from "../support/email-links.ts";
import { seedConsent, waitForHydration } from "../support/site.ts";

/**
 * The pages behind the links in our emails (issue 11, docs/decisions/090), against the
 * production build: genuine tokens are signed with the server's own link key, and what
 * changed is read back through the operator's CLI (`registrations show --email`).
 */

const oneClick = { "List-Unsubscribe": "One-Click" };
const form = "application/x-www-form-urlencoded";

test.beforeEach(({ context }) => seedConsent(context));

/** Someone's registration as the CLI shows it. */
const shown = async (someone: Registrant) => (await showRegistrations(someone.email))[0];
const h1 = (scope: Pick<Page, "getByRole">) => scope.getByRole("heading", { level: 1 });

/** A page with a token in its URL: its status, and the headers it must carry. */
function expectTokenPage(response: Response | APIResponse | null, label: string, status = 200) {
  expect(response?.status(), label).toBe(status);
  const headers = response?.headers() ?? {};
  expect(headers["cache-control"], label).toBe("no-store");
  expect(headers["x-robots-tag"], label).toBe("noindex");
  expect(headers["referrer-policy"], label).toBe("same-origin");
  // Rendered per request, so its scripts run under a nonce, not the build's hashes.
  expect(headers["content-security-policy"], label).toMatch(/script-src 'self' 'nonce-/);
}

/** Fails the test on any CSP violation or console error while the page is used. */
async function watchPage(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.effectiveDirective} ${e.blockedURI}`);
    });
  });
  return problems;
}

async function expectNoindexMeta(page: Page) {
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
}

/** Presses the main's button `name` and returns the POST it sends, a 200. */
async function press(page: Page, name: string) {
  const [posted] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("main").getByRole("button", { name }).click(),
  ]);
  expect(posted.status()).toBe(200);
  return posted;
}

test.describe("the confirm link", () => {
  test("opening the link only asks; the button confirms, says what happens next, and a second press is harmless", async ({
    page,
    baseURL,
    request,
  }) => {
    const problems = await watchPage(page);
    const someone = await registerSomeone(baseURL ?? "", "confirm");
    expect((await shown(someone))?.confirmedAt).toBeNull();

    // A link scanner's GET, HEAD and the `.data` GET change nothing (docs/decisions/100).
    const link = confirmPath(someone.confirmToken());
    expect((await request.head(link)).status()).toBe(200);
    const dataUrl = link.replace("/register-interest/confirm?", "/register-interest/confirm.data?");
    expect((await request.get(dataUrl)).status()).toBe(200);
    expectTokenPage(await page.goto(link), "ask");
    await waitForHydration(page);
    const main = page.getByRole("main");
    await expect(h1(main)).toHaveText("One more step: confirm your email address");
    await expect(page).toHaveTitle(/^One more step: confirm your email address \|/);
    await expectNoindexMeta(page);
    expect((await shown(someone))?.confirmedAt).toBeNull();

    const posted = await press(page, "Confirm my email address");
    // The page ships no module script (docs/decisions/105): the button posts the document.
    expect(new URL(posted.url()).pathname).toBe("/register-interest/confirm");
    await expect(h1(main)).toHaveText("Your email address is confirmed");
    await expect(main).toContainText("we will send you one email");
    const confirmedAt = (await shown(someone))?.confirmedAt;
    expect(confirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The same email opened again, or a second, older confirm link: nothing changes.
    for (const token of [someone.confirmToken(), someone.confirmToken(daysAgo(8))]) {
      expect((await page.goto(confirmPath(token)))?.status()).toBe(200);
      await expect(h1(main)).toHaveText("Your email address is already confirmed");
    }
    // A second press (the same POST again, from a stale tab) is harmless.
    const twice = await request.post(link, {
      headers: { origin: baseURL ?? "" },
      form: { token: someone.confirmToken() },
    });
    expect(twice.status()).toBe(200);
    expect((await shown(someone))?.confirmedAt).toBe(confirmedAt);
    expect(problems).toEqual([]);
  });

  test("a forged, altered, missing or expired link gets a clear 4xx page and changes nothing", async ({
    page,
    baseURL,
  }) => {
    const someone = await registerSomeone(baseURL ?? "", "confirm-bad");
    const genuine = someone.confirmToken();
    const [, id, expires, signature = ""] = genuine.split(".");
    const flip = (c: string) => (c === "A" ? "B" : "A");
    // Each is a 400 that "could not read" the link unless it says otherwise.
    const refused: Array<[string, string | null, number?, string?]> = [
      ["forged", `c.${id}.${expires}.${"x".repeat(signature.length)}`],
      ["altered signature", `${genuine.slice(0, -1)}${flip(genuine.at(-1) ?? "")}`],
      ["altered expiry", `c.${id}.${Number(expires) + 86_400}.${signature}`],
      ["an unsubscribe token", someone.unsubscribeToken()],
      ["garbage", "%%<script>"],
      ["too long", "c.".repeat(500)],
      ["missing", null],
      ["expired (issued 8 days ago)", someone.confirmToken(daysAgo(8)), 410, "has expired"],
    ];
    const main = page.getByRole("main");
    for (const [label, token, status = 400, heading = "could not read"] of refused) {
      const url = token === null ? "/register-interest/confirm" : confirmPath(token);
      expectTokenPage(await page.goto(url), label, status);
      await expect(h1(main), label).toContainText(heading);
      await expect(main.getByRole("link", { name: "Register again" }), label).toBeVisible();
      await expectNoindexMeta(page);
    }
    await expect(main).toContainText("7 days");
    expect((await shown(someone))?.confirmedAt).toBeNull();

    // A link from six days ago still works: the 410 above was the expiry, not the token.
    expect((await page.goto(confirmPath(someone.confirmToken(daysAgo(6)))))?.status()).toBe(200);
    await main.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(h1(main)).toHaveText("Your email address is confirmed");
    expect((await shown(someone))?.confirmedAt).not.toBeNull();
  });

  test("a link to an erased registration says it is no longer held (410)", async ({
    page,
    request,
    baseURL,
  }) => {
    const someone = await registerSomeone(baseURL ?? "", "erased");
    const env = { DATA_DIR: process.env.E2E_DATA_DIR ?? "" };
    await registrationsCli(env, ["erase", "--email", someone.email]);

    expect((await page.goto(confirmPath(someone.confirmToken())))?.status()).toBe(410);
    await expect(h1(page)).toHaveText("We no longer hold this registration");
    const unsubscribe = unsubscribePath(someone.unsubscribeToken());
    expect((await page.goto(unsubscribe))?.status()).toBe(410);
    expect((await request.post(unsubscribe, { form: oneClick })).status()).toBe(410);
    expect(await showRegistrations(someone.email)).toEqual([]);
  });
});

test.describe("the unsubscribe link", () => {
  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the button is a plain form post, and a second visit says it is done", async ({
      page,
      baseURL,
    }) => {
      const someone = await registerSomeone(baseURL ?? "", "unsub-nojs");
      const link = unsubscribePath(someone.unsubscribeToken());
      expectTokenPage(await page.goto(link), "unsubscribe, asking");
      const main = page.getByRole("main");
      await expect(h1(main)).toHaveText("Unsubscribe from our emails");
      await expectNoindexMeta(page);
      // Looking never unsubscribes: link scanners open links too.
      expect((await shown(someone))?.unsubscribedAt).toBeNull();
      const posted = await press(page, "Unsubscribe");
      await expect(h1(main)).toHaveText("You are unsubscribed");
      expect((await shown(someone))?.unsubscribedAt).toMatch(/^\d{4}-/);
      expectTokenPage(posted, "unsubscribe, done (document POST)");
      expect(new URL(posted.url()).pathname).toBe("/unsubscribe");

      expect((await page.goto(link))?.status()).toBe(200);
      await expect(h1(page)).toHaveText("You are already unsubscribed");
      await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);

      // The one way back (docs/decisions/101): the link proves the mailbox is theirs.
      await page.getByRole("button", { name: "Join the list again" }).click();
      await expect(h1(page)).toHaveText("You are back on our waiting list");
      const back = await shown(someone);
      expect(back?.unsubscribedAt).toBeNull();
      expect(back?.confirmedAt).toMatch(/^\d{4}-/);
    });
  });

  test("a mail provider's one-click POST without Origin unsubscribes, and repeating it is harmless", async ({
    request,
    baseURL,
  }) => {
    const someone = await registerSomeone(baseURL ?? "", "one-click");
    const url = unsubscribePath(someone.unsubscribeToken());
    const first = await request.post(url, { form: oneClick });
    expectTokenPage(first, "one-click");
    expect(await first.text()).toContain("You are unsubscribed");
    const at = (await shown(someone))?.unsubscribedAt;
    expect(at).toMatch(/^\d{4}-/);

    expect((await request.post(url, { form: oneClick })).status()).toBe(200);
    expect((await shown(someone))?.unsubscribedAt).toBe(at);

    // A forged one changes nothing for anybody and says so with a 400.
    const other = await registerSomeone(baseURL ?? "", "one-click-other");
    const forged = `${other.unsubscribeToken().slice(0, -2)}xx`;
    const refused = await request.post(unsubscribePath(forged), { form: oneClick });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("could not read this unsubscribe link");
    expect((await request.post("/unsubscribe", { form: oneClick })).status()).toBe(400);
    expect((await shown(other))?.unsubscribedAt).toBeNull();
  });

  test("a one-click POST unsubscribes whatever its Origin says; a confirm POST from another site is refused", async ({
    request,
    baseURL,
  }) => {
    // RFC 8058 POSTs come from mail providers: the signed token is the authority.
    for (const origin of ["https://mail.example", "null", undefined]) {
      const someone = await registerSomeone(baseURL ?? "", "one-click-origin");
      const answer = await request.post(unsubscribePath(someone.unsubscribeToken()), {
        form: oneClick,
        headers: origin === undefined ? {} : { origin },
      });
      expect(answer.status(), String(origin)).toBe(200);
      expect((await shown(someone))?.unsubscribedAt, String(origin)).toMatch(/^\d{4}-/);
    }

    const someone = await registerSomeone(baseURL ?? "", "confirm-cross-origin");
    const refused = await request.post(confirmPath(someone.confirmToken()), {
      form: { token: someone.confirmToken() },
      headers: { origin: "https://evil.example" },
    });
    expect(refused.status()).toBe(403);
    const text = await refused.text();
    expect(text).toContain("This confirmation cannot be sent from here");
    expect(text).not.toMatch(/registration/i);
    expect(refused.headers()["cache-control"]).toBe("no-store");
    expect((await shown(someone))?.confirmedAt).toBeNull();
  });
});

/** A POST exactly as a mail provider sends it: no Origin, no Sec-Fetch-*, a tiny form body. */
function rawOneClick(base: string, pathWithQuery: string): Promise<number> {
  const body = "List-Unsubscribe=One-Click";
  const headers = { "content-type": form, "content-length": String(body.length) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${pathWithQuery}`, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("many one-clicks from one address are not refused by the registration rate limit", async () => {
  test.setTimeout(120_000);
  // The production limits: 5 registrations a minute per address.
  const server = await startServer({
    env: { RATE_LIMIT_PER_MINUTE: "5", RATE_LIMIT_PER_DAY: "50" },
  });
  try {
    const someone = await registerSomeone(server.url, "many-clicks", server.dataDir);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(await rawOneClick(server.url, unsubscribePath(someone.unsubscribeToken())));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(
      (await showRegistrations(someone.email, server.dataDir))[0]?.unsubscribedAt,
    ).not.toBeNull();

    // Registrations from the same address are still limited, and were not used up: the
    // first one above and four more pass, the next is refused.
    const more: number[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `limit-${i}-${Date.now()}@example.co.uk`;
      const res = await fetch(`${server.url}/register-interest`, {
        method: "POST",
        headers: { origin: server.url, "content-type": form },
        body: new URLSearchParams({ name: "Sam", email, website: "" }),
        redirect: "manual",
      });
      more.push(res.status);
    }
    expect(more.slice(0, 4).every((s) => s < 400)).toBe(true);
    expect(more[4]).toBe(429);
  } finally {
    await server.stop();
  }
});
