/**
 * The waiting list at a glance (issue 31, point 4; docs/decisions/134): a visit's source is
 * stored with its registration only with analytics consent and JavaScript, and the console's
 * overview shows a viewer and a manager the same figures as the database holds, the chart
 * agreeing with its table, and nobody's name or address.
 */
import { type Page, expect } from "@playwright/test";

import { ATTRIBUTION_STORAGE_KEY } from "../../contract/registrations.ts";
import {
  openRegistrations,
  registrationsFor,
  uniqueEmail,
} from "../../scripts/lib/registrations.ts";
import { consoleFetch, consoleURL, seedStaff, signInAs, test } from "../support/console.ts";
import { nuErrors } from "../support/nu.ts";
import { axeViolations } from "../support/site.ts";

const londonDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

const registrants: { name: string; email: string }[] = [];

/** A registration through the form at `form`, one of the registrants no page may show. */
async function register(page: Page, label: string, form = "/register-interest") {
  const person = {
    name: `Overview ${label} ${Date.now()}`,
    email: uniqueEmail(`overview-${label}`),
  };
  await page.goto(form);
  await page.getByLabel("Full name").fill(person.name);
  await page.getByLabel("Email address").fill(person.email);
  await page.getByRole("button", { name: "Register Interest" }).click();
  await expect.poll(() => registrationsFor(person.email).length).toBe(1);
  registrants.push(person);
  return person;
}

const storedSource = (email: string) => {
  const [row] = registrationsFor(email);
  return row
    ? {
        recorded: Number(row.source_recorded),
        source: row.utm_source,
        medium: row.utm_medium,
        campaign: row.utm_campaign,
        referrer: row.referrer_host,
      }
    : null;
};

const notRecorded = { recorded: 0, source: null, medium: null, campaign: null, referrer: null };

const kept = (page: Page) =>
  page.evaluate((key) => sessionStorage.getItem(key), ATTRIBUTION_STORAGE_KEY);

type Figure = "registered" | "confirmed" | "unsubscribed" | "news" | "notRecorded" | "erased";

/** What the overview must show, read from the database as the page is read. */
function expected() {
  const db = openRegistrations();
  try {
    const figures = `SELECT count(*) AS registered, count(confirmed_at) AS confirmed,
        count(unsubscribed_at) AS unsubscribed, coalesce(sum(wants_updates), 0) AS news,
        coalesce(sum(source_recorded = 0), 0) AS notRecorded,
        (SELECT coalesce(sum(registrations), 0) FROM erasures) AS erased
      FROM registrations`;
    const totals = db.prepare(figures).get() as Record<Figure, number>;
    const times = db.prepare("SELECT received_at AS at FROM registrations").all();
    const today = londonDay.format(new Date());
    return {
      ...totals,
      unconfirmed: totals.registered - totals.confirmed,
      today: times.filter((t) => londonDay.format(new Date(t.at as string)) === today).length,
    };
  } finally {
    db.close();
  }
}

const figure = (page: Page, label: string) =>
  page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");

const sourceTable = (page: Page, caption: string) =>
  page.locator("table").filter({ has: page.locator("caption", { hasText: caption }) });

const countIn = async (table: ReturnType<typeof sourceTable>, label: string) =>
  Number(
    await table
      .locator("tr", { has: table.page().getByRole("rowheader", { name: label, exact: true }) })
      .locator("td")
      .textContent(),
  );

test.describe.configure({ mode: "serial" });

const campaign = `spring-${Date.now()}`;
/** What the landing visit of the first test brings, kept and then stored. */
const landing = { source: "newsletter", medium: "email", campaign, referrer: "www.google.co.uk" };

test("with analytics allowed, the landing visit's campaign and referring host go with the registration", async ({
  page,
}) => {
  await page.goto(`/?utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}`, {
    referer: "https://www.google.co.uk/search?q=testosterone",
  });
  expect(await kept(page), "nothing before consent").toBeNull();
  await page.locator("#consent-banner").getByRole("button", { name: "Accept All" }).click();
  expect(JSON.parse((await kept(page)) ?? "null")).toEqual(landing);
  // A later page of the same visit keeps the landing page's source, not its own.
  await page.goto("/pricing?utm_source=other");
  const person = await register(page, "consented");
  expect(storedSource(person.email)).toEqual({ recorded: 1, ...landing });
});

test("without analytics consent, or after withdrawing it, nothing is kept or stored", async ({
  page,
}) => {
  await page.goto(`/?utm_source=refused&utm_campaign=${campaign}`, {
    referer: "https://m.facebook.com/",
  });
  await page.locator("#consent-banner").getByRole("button", { name: "Essential Only" }).click();
  expect(await kept(page)).toBeNull();
  const refused = await register(page, "essential");
  expect(storedSource(refused.email)).toEqual(notRecorded);

  // Allowed, then withdrawn in the preferences: what was kept goes.
  await page.getByRole("button", { name: "Cookie settings" }).click();
  const dialog = page.locator("#cookie-preferences");
  await dialog.getByRole("switch", { name: "Analytics" }).check();
  await dialog.getByRole("button", { name: "Save preferences" }).click();
  expect(await kept(page)).not.toBeNull();
  await page.getByRole("button", { name: "Cookie settings" }).click();
  await dialog.getByRole("switch", { name: "Analytics" }).uncheck();
  await dialog.getByRole("button", { name: "Save preferences" }).click();
  expect(await kept(page)).toBeNull();
  const withdrawn = await register(page, "withdrawn");
  expect(storedSource(withdrawn.email)).toEqual(notRecorded);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form stores no source", async ({ page }) => {
    const form = `/register-interest?utm_source=nojs&utm_campaign=${campaign}`;
    const person = await register(page, "nojs", form);
    await page.waitForURL("**/register-interest/thank-you");
    expect(storedSource(person.email)).toEqual(notRecorded);
  });
});

for (const role of ["viewer", "manager"] as const) {
  test(`a ${role} sees the database's figures, the chart and its tables agreeing, and no person`, async ({
    page,
    context,
  }) => {
    // The page, axe and the Nu checker: over a minute on a starved CPU (load 28 here once).
    test.setTimeout(120_000);
    const staff = seedStaff(role);
    await signInAs(context, staff);
    // Other specs register at the same time: read the page and the database until they agree.
    await expect(async () => {
      const response = await page.goto(`${consoleURL}/console`);
      expect(response?.status()).toBe(200);
      const want = expected();
      const number = async (label: string) => Number(await figure(page, label).textContent());
      expect(await number("Registered")).toBe(want.registered);
      expect(await number("Confirmed their email")).toBe(want.confirmed);
      expect(await number("Not yet confirmed")).toBe(want.unconfirmed);
      expect(await number("Unsubscribed")).toBe(want.unsubscribed);
      expect(await number("Erased on request")).toBe(want.erased);
      expect(await number("Asked for news before launch")).toBe(want.news);
      const rate = Math.round((want.confirmed / want.registered) * 100);
      await expect(page.getByTestId("confirmation-rate")).toHaveText(
        `${rate}% of registrations have confirmed their email address.`,
      );
      const days = page.locator("table").first();
      expect(Number(await days.locator("tbody tr").last().locator("td").textContent())).toBe(
        want.today,
      );
      const campaigns = sourceTable(page, "Campaign name (utm_campaign)");
      expect(await countIn(campaigns, campaign)).toBe(1);
      expect(await countIn(campaigns, "Not recorded")).toBe(want.notRecorded);
      const referrers = sourceTable(page, "Referring website");
      expect(await countIn(referrers, "www.google.co.uk")).toBeGreaterThanOrEqual(1);
    }).toPass({ timeout: 15_000 });

    // Each bar of both charts has the count of its table row.
    const bars = await page
      .locator("svg rect")
      .evaluateAll((rects) =>
        rects.map((r) => [r.getAttribute("data-label"), r.getAttribute("data-count")]),
      );
    expect(bars).toHaveLength(30 + 12);
    const rows = await page
      .locator("tr[data-label]")
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute("data-label"), tr.querySelector("td")?.textContent]),
      );
    expect(rows).toEqual(bars);

    const html = await page.content();
    expect(registrants.length).toBeGreaterThanOrEqual(4);
    for (const person of registrants) {
      expect(html).not.toContain(person.email);
      expect(html).not.toContain(person.name);
    }
    expect(html).not.toMatch(/@example\.co\.uk/);

    // console-a11y.spec.ts checks the page too, but perhaps before anything is registered.
    expect(await axeViolations(page), "axe, with sources and figures").toEqual([]);
    const served = await (await consoleFetch("/console", { token: staff.token })).text();
    expect(await nuErrors(new Map([[`/overview-${role}`, served]]))).toEqual([]);
  });
}
