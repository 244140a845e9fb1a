import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import path from "node:path";

import { type APIResponse, type Page, type Response, expect, test } from "@playwright/test";

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

const root = path.resolve(import.meta.dirname, "..", "..");
const oneClick = { "List-Unsubscribe": "One-Click" };

test.beforeEach(async ({ context }) => {
  await seedConsent(context);
});

/** The headers a page with a token in its URL must carry. */
function expectTokenPageHeaders(response: Response | APIResponse | null, label: string) {
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

test.describe("the confirm link", () => {
  test("opening the link only asks; the button confirms, says what happens next, and a second press is harmless", async ({
    page,
    baseURL,
    request,
  }) => {
    const problems = await watchPage(page);
    const someone = await registerSomeone(baseURL ?? "", "confirm");
    expect(showRegistrations(someone.email)[0]?.confirmedAt).toBeNull();

    // A link scanner's GET, HEAD and the `.data` GET change nothing (docs/decisions/100).
    const link = confirmPath(someone.confirmToken());
    expect((await request.head(link)).status()).toBe(200);
    const dataUrl = link.replace("/register-interest/confirm?", "/register-interest/confirm.data?");
    expect((await request.get(dataUrl)).status()).toBe(200);
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    expectTokenPageHeaders(first, "ask");
    await waitForHydration(page);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "One more step: confirm your email address",
    );
    await expect(page).toHaveTitle(/^One more step: confirm your email address \|/);
    await expectNoindexMeta(page);
    expect(showRegistrations(someone.email)[0]?.confirmedAt).toBeNull();

    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      main.getByRole("button", { name: "Confirm my email address" }).click(),
    ]);
    expect(posted.status()).toBe(200);
    // The page ships no module script (docs/decisions/105): the button posts the document.
    expect(new URL(posted.url()).pathname).toBe("/register-interest/confirm");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Your email address is confirmed",
    );
    await expect(main).toContainText("we will send you one email");
    const confirmedAt = showRegistrations(someone.email)[0]?.confirmedAt;
    expect(confirmedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The same email opened again, or a second, older confirm link: nothing changes.
    for (const token of [someone.confirmToken(), someone.confirmToken(daysAgo(8))]) {
      const again = await page.goto(confirmPath(token));
      expect(again?.status()).toBe(200);
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(
        "Your email address is already confirmed",
      );
    }
    // A second press (the same POST again, from a stale tab) is harmless.
    const twice = await request.post(link, {
      headers: { origin: baseURL ?? "" },
      form: { token: someone.confirmToken() },
    });
    expect(twice.status()).toBe(200);
    expect(showRegistrations(someone.email)[0]?.confirmedAt).toBe(confirmedAt);
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
    const refused: Array<[string, string | null, number, string]> = [
      ["forged", `c.${id}.${expires}.${"x".repeat(signature.length)}`, 400, "could not read"],
      [
        "altered signature",
        `${genuine.slice(0, -1)}${flip(genuine.at(-1) ?? "")}`,
        400,
        "could not read",
      ],
      ["altered expiry", `c.${id}.${Number(expires) + 86_400}.${signature}`, 400, "could not read"],
      ["an unsubscribe token", someone.unsubscribeToken(), 400, "could not read"],
      ["garbage", "%%<script>", 400, "could not read"],
      ["too long", "c.".repeat(500), 400, "could not read"],
      ["missing", null, 400, "could not read"],
      ["expired (issued 8 days ago)", someone.confirmToken(daysAgo(8)), 410, "has expired"],
    ];
    const main = page.getByRole("main");
    for (const [label, token, status, heading] of refused) {
      const url = token === null ? "/register-interest/confirm" : confirmPath(token);
      const response = await page.goto(url);
      expect(response?.status(), label).toBe(status);
      expectTokenPageHeaders(response, label);
      await expect(main.getByRole("heading", { level: 1 }), label).toContainText(heading);
      await expect(main.getByRole("link", { name: "Register again" }), label).toBeVisible();
      await expectNoindexMeta(page);
    }
    await expect(main).toContainText("7 days");
    expect(showRegistrations(someone.email)[0]?.confirmedAt).toBeNull();

    // A link from six days ago still works: the 410 above was the expiry, not the token.
    const inTime = await page.goto(confirmPath(someone.confirmToken(daysAgo(6))));
    expect(inTime?.status()).toBe(200);
    await main.getByRole("button", { name: "Confirm my email address" }).click();
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(
      "Your email address is confirmed",
    );
    expect(showRegistrations(someone.email)[0]?.confirmedAt).not.toBeNull();
  });

  test("a link to an erased registration says it is no longer held (410)", async ({
    page,
    request,
    baseURL,
  }) => {
    const someone = await registerSomeone(baseURL ?? "", "erased");
    const erase = spawnSync(
      process.execPath,
      ["server/cli/registrations.ts", "erase", "--email", someone.email],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "",
          DATA_DIR: process.env.E2E_DATA_DIR ?? "",
          LOG_LEVEL: "silent",
        },
        encoding: "utf8",
      },
    );
    expect(erase.status, erase.stderr).toBe(0);

    const confirm = await page.goto(confirmPath(someone.confirmToken()));
    expect(confirm?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "We no longer hold this registration",
    );
    const look = await page.goto(unsubscribePath(someone.unsubscribeToken()));
    expect(look?.status()).toBe(410);
    const post = await request.post(unsubscribePath(someone.unsubscribeToken()), {
      form: oneClick,
    });
    expect(post.status()).toBe(410);
    expect(showRegistrations(someone.email)).toEqual([]);
  });
});

test.describe("the unsubscribe link", () => {
  async function pressUnsubscribe(page: Page, someone: Registrant) {
    const look = await page.goto(unsubscribePath(someone.unsubscribeToken()));
    expect(look?.status()).toBe(200);
    expectTokenPageHeaders(look, "unsubscribe, asking");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Unsubscribe from our emails");
    await expectNoindexMeta(page);
    // Looking never unsubscribes: link scanners open links too.
    expect(showRegistrations(someone.email)[0]?.unsubscribedAt).toBeNull();
    const button = main.getByRole("button", { name: "Unsubscribe" });
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      button.click(),
    ]);
    expect(posted.status()).toBe(200);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("You are unsubscribed");
    expect(showRegistrations(someone.email)[0]?.unsubscribedAt).toMatch(/^\d{4}-/);
    return posted;
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the button is a plain form post, and a second visit says it is done", async ({
      page,
      baseURL,
    }) => {
      const someone = await registerSomeone(baseURL ?? "", "unsub-nojs");
      const posted = await pressUnsubscribe(page, someone);
      expectTokenPageHeaders(posted, "unsubscribe, done (document POST)");
      expect(new URL(posted.url()).pathname).toBe("/unsubscribe");

      const later = await page.goto(unsubscribePath(someone.unsubscribeToken()));
      expect(later?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "You are already unsubscribed",
      );
      await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);

      // The one way back (docs/decisions/101): the link proves the mailbox is theirs.
      await page.getByRole("button", { name: "Join the list again" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "You are back on our waiting list",
      );
      const [back] = showRegistrations(someone.email);
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
    expect(first.status()).toBe(200);
    expectTokenPageHeaders(first, "one-click");
    expect(await first.text()).toContain("You are unsubscribed");
    const at = showRegistrations(someone.email)[0]?.unsubscribedAt;
    expect(at).toMatch(/^\d{4}-/);

    const again = await request.post(url, { form: oneClick });
    expect(again.status()).toBe(200);
    expect(showRegistrations(someone.email)[0]?.unsubscribedAt).toBe(at);

    // A forged one changes nothing for anybody and says so with a 400.
    const other = await registerSomeone(baseURL ?? "", "one-click-other");
    const forged = `${other.unsubscribeToken().slice(0, -2)}xx`;
    const refused = await request.post(unsubscribePath(forged), { form: oneClick });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("could not read this unsubscribe link");
    const noToken = await request.post("/unsubscribe", { form: oneClick });
    expect(noToken.status()).toBe(400);
    expect(showRegistrations(other.email)[0]?.unsubscribedAt).toBeNull();
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
      expect(showRegistrations(someone.email)[0]?.unsubscribedAt, String(origin)).toMatch(
        /^\d{4}-/,
      );
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
    expect(showRegistrations(someone.email)[0]?.confirmedAt).toBeNull();
  });
});

/** A POST exactly as a mail provider sends it: no Origin, no Sec-Fetch-*, a tiny form body. */
function rawOneClick(base: string, pathWithQuery: string): Promise<number> {
  const body = "List-Unsubscribe=One-Click";
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${pathWithQuery}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(body.length),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
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
    expect(showRegistrations(someone.email, server.dataDir)[0]?.unsubscribedAt).not.toBeNull();

    // Registrations from the same address are still limited, and were not used up: the
    // first one above and four more pass, the next is refused.
    const more: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/register-interest`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          name: "Sam",
          email: `limit-${i}-${Date.now()}@example.co.uk`,
          website: "",
        }),
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
