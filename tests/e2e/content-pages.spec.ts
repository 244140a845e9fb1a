/**
 * The content pages: each page's key texts and links, the single-open accordions,
 * titles and descriptions, and structured data.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

import { faqGroups } from "../../app/content/faq.ts";
import { type PagePath, pages } from "../../app/content/pages.ts";
import { treatmentOptions } from "../../app/content/treatments.ts";
import {
  CONSENT_STORAGE_KEY,
  essentialOnly,
  serializeConsent,
} from "../../app/features/consent/consent-record.ts";
import { expectExpanded } from "../support/site.ts";

const contentPaths = [
  "/",
  "/our-approach",
  "/team",
  "/trt-overview",
  "/faq",
  "/services",
  "/treatment-options",
  "/consultation",
  "/contact",
  "/privacy-policy",
  "/cookie-policy",
  "/terms-of-service",
  "/shipping-policy",
  "/refund-policy",
] as const satisfies PagePath[];

test.beforeEach(async ({ context }) => {
  // A stored cookie choice keeps the consent banner from covering the foot of the page.
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    CONSENT_STORAGE_KEY,
    serializeConsent(essentialOnly),
  ] as const);
});

function main(page: Page): Locator {
  return page.getByRole("main");
}

async function expectLink(scope: Locator, name: string | RegExp, href: string) {
  const link = scope.getByRole("link", { name, exact: typeof name === "string" });
  await expect(link.first()).toBeVisible();
  await expect(link.first()).toHaveAttribute("href", href);
}

async function jsonLdTypes(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
}

test.describe("every content page", () => {
  // Each one's title, description, canonical URL and heading: every-page.spec.ts.
  test("titles and descriptions are unique", () => {
    const titles = contentPaths.map((p) => pages[p].title);
    const descriptions = contentPaths.map((p) => pages[p].description);
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });
});

test.describe("home", () => {
  test("hero, quiz card, trust points and closing call to action", async ({ page }) => {
    await page.goto("/");
    const hero = page.getByRole("region", { name: "Expert TRT for the Modern Man" });
    await expect(hero.getByText(/holistic testosterone therapy/i)).toBeVisible();
    await expect(hero.getByText("Services Available Upon CQC Approval.")).toBeVisible();
    await expectLink(hero, "Register Your Interest", "/register-interest");
    await expectLink(hero, "Learn About Our Services", "/services");

    const quiz = page.getByRole("complementary", { name: "Not sure if you have symptoms?" });
    await expectLink(quiz, /Take the ADAM Quiz/, "/quiz");

    const trust = page.getByRole("region", { name: "More Than Just a TRT Clinic" });
    for (const point of ["GMC Registered", "MHRA Compliant", "Specialist Experience"]) {
      await expect(trust.getByRole("heading", { name: point })).toBeVisible();
    }
    await expect(trust.getByText("4.8/5")).toBeVisible();
    await expectLink(trust, "Learn About Our Team", "/team");

    const closing = page.getByRole("region", { name: "Join Our Waiting List" });
    await expectLink(closing, "Register Your Interest", "/register-interest");
    await expectLink(closing, "Explore Our Services", "/services");
  });

  test("'Learn About Our Team' opens the team page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Learn About Our Team" }).click();
    await expect(page).toHaveURL(/\/team$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meet the Team");
  });

  test("names no prescription-only medicine and quotes no price", async ({ page }) => {
    await page.goto("/");
    const text = (await main(page).textContent()) ?? "";
    expect(text).not.toMatch(
      /cypionate|enanthate|undecanoate|propionate|sustanon|nebido|testogel|tostran|testavan|restandol|hcg|anastrozole|tadalafil|£/i,
    );
  });

  test("carries MedicalClinic structured data", async ({ page }) => {
    await page.goto("/");
    const clinic = (await jsonLdTypes(page)).find((d) => d["@type"] === "MedicalClinic");
    expect(clinic).toMatchObject({ name: "Meridian Men's Health", telephone: expect.any(String) });
  });
});

test.describe("our approach", () => {
  test("principles, three steps with illustration, foundation and outcomes", async ({ page }) => {
    await page.goto("/our-approach");
    const m = main(page);
    await expect(m.getByRole("heading", { name: "Our principles" })).toBeVisible();
    const process = page.getByRole("region", { name: "Our three-step process" });
    for (const step of ["Initial Assessment", "Treatment Initiation", "Ongoing Care"]) {
      await expect(process.getByRole("heading", { name: step, exact: true })).toBeVisible();
    }
    await expect(process.getByRole("img", { name: "Our three-step process" })).toBeVisible();
    await expect(m.getByRole("heading", { name: "Clinical foundation" })).toBeVisible();
    await expect(m.getByRole("heading", { name: "What you can expect" })).toBeVisible();
    await expect(
      page.getByRole("complementary", { name: "Medical information notice" }),
    ).toBeVisible();
  });

  test("the footer's 'Ongoing Monitoring' lands on the monitoring timeline", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Ongoing Monitoring" }).click();
    await expect(page).toHaveURL(/\/our-approach#ongoing-care$/);
    const section = page.locator("#ongoing-care");
    await expect(section).toBeInViewport();
    await expect(
      section.getByRole("img", { name: "Monitoring in the first year of treatment" }),
    ).toBeVisible();
    for (const when of ["6 weeks", "3 months", "6 months", "12 months"]) {
      await expect(section.getByRole("heading", { name: when })).toBeVisible();
    }
  });
});

test.describe("team", () => {
  test("two member cards with role, qualifications, bio and initials", async ({ page }) => {
    await page.goto("/team");
    const cards = main(page).getByRole("article");
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      await expect(card.getByRole("heading", { level: 3 })).toHaveText(/^Dr /);
      await expect(card.getByText(/^[A-Z]{2}$/)).toBeVisible();
      await expect(card.getByText(/Qualifications:/)).toBeAttached();
      await expect(card.locator("p")).not.toHaveCount(0);
    }
    await expectLink(main(page), "Register Your Interest", "/register-interest");
  });
});

test.describe("TRT overview", () => {
  test("benefits, impact badges, candidates and links", async ({ page }) => {
    await page.goto("/trt-overview");
    const m = main(page);
    await expect(m.getByRole("heading", { name: "Possible benefits" })).toBeVisible();
    const daily = page.getByRole("region", { name: "Where it shows in daily life" });
    for (const level of ["Very High", "High", "Medium"]) {
      await expect(daily.getByText(`Impact: ${level}`, { exact: true }).first()).toBeVisible();
    }
    await expect(m.getByRole("heading", { name: "Who may be a candidate?" })).toBeVisible();
    await expect(m.getByText(/below 12 nmol\/L/)).toBeVisible();
    await expectLink(m, "What you need for a consultation", "/consultation");
    // The spec's /how-it-works does not exist: the link goes to the three-step process.
    await expectLink(m, "How it works", "/our-approach");
    await expect(page.locator('a[href="/how-it-works"]')).toHaveCount(0);
    await expectLink(m, "Register Your Interest", "/register-interest");
  });
});

/**
 * The questions of an accordion list: the <summary> of each native <details> (decision
 * 054). The browser keeps one of a list open at a time, because they share a name.
 */
async function questions(list: Locator, count: number): Promise<Locator> {
  const summaries = list.locator("details > summary");
  await expect(summaries).toHaveCount(count);
  return summaries;
}

/** Checks that exactly one question of the list is expanded, or none. */
async function expectOpen(summaries: Locator, openIndex: number | null) {
  const count = await summaries.count();
  for (let i = 0; i < count; i++) {
    const details = summaries.nth(i).locator("..");
    if (i === openIndex) await expect(details).toHaveAttribute("open", "");
    else await expect(details).not.toHaveAttribute("open");
  }
  if (openIndex !== null) await expectExpanded(summaries.nth(openIndex), true);
}

/** The answer of a question: what follows its summary. */
const answerOf = (summary: Locator) => summary.locator("xpath=following-sibling::*[1]");

test.describe("FAQ", () => {
  test("four groups, each a list that keeps one answer open", async ({ page }) => {
    await page.goto("/faq");
    for (const group of faqGroups) {
      const region = page.getByRole("region", { name: group.title, exact: true });
      await expect(region.getByRole("heading", { level: 2 })).toHaveText(group.title);
      const summaries = await questions(region, group.items.length);
      await expectOpen(summaries, null);

      await summaries.nth(0).click();
      await expectOpen(summaries, 0);
      await expect(answerOf(summaries.nth(0))).toBeVisible();

      await summaries.nth(1).click();
      await expectOpen(summaries, 1);
      await expect(answerOf(summaries.nth(0))).toBeHidden();

      // An open item can be closed again.
      await summaries.nth(1).click();
      await expectOpen(summaries, null);
    }
  });

  test("groups open independently of each other", async ({ page }) => {
    await page.goto("/faq");
    const first = page.getByRole("region", { name: "Getting Started", exact: true });
    const last = page.getByRole("region", { name: "Logistics", exact: true });
    await (await questions(first, faqGroups[0]!.items.length)).first().click();
    await (await questions(last, faqGroups.at(-1)!.items.length)).first().click();
    await expect(first.locator("details").first()).toHaveAttribute("open", "");
    await expect(last.locator("details").first()).toHaveAttribute("open", "");
  });

  test("states the injection frequency and the failed-payment rule", async ({ page }) => {
    await page.goto("/faq");
    const open = async (question: string) => {
      const summary = main(page).locator("summary", { hasText: question });
      await summary.click();
      return answerOf(summary);
    };
    await open("How often would I need injections?");
    await expect(main(page).getByText(/two to three times per week/)).toBeVisible();
    const answer = await open("What happens if a payment fails?");
    await expect(answer).toContainText("retried automatically");
    await expect(answer).toContainText("update your card details at any time in your account");
  });

  test("links to the contact page and carries FAQPage data for every question", async ({
    page,
  }) => {
    await page.goto("/faq");
    await expectLink(main(page), "Contact Our Team", "/contact");
    const faq = (await jsonLdTypes(page)).find((d) => d["@type"] === "FAQPage");
    const questions = await main(page).locator("details summary").allTextContents();
    const entities = (faq?.mainEntity ?? []) as { name: string }[];
    expect(entities.map((e) => e.name)).toEqual(questions);
  });
});

test.describe("services", () => {
  test("four services, the approval notice and a link to register", async ({ page }) => {
    await page.goto("/services");
    const m = main(page);
    for (const name of [
      "Specialist Consultations",
      "Blood Testing",
      "Personalised Treatment Plans",
      "Ongoing Care and Monitoring",
    ]) {
      await expect(m.getByRole("article", { name })).toBeVisible();
    }
    await expect(m.getByRole("note").filter({ hasText: "await approval" })).toBeVisible();
    await expectLink(m, "Register Your Interest", "/register-interest");
  });
});

test.describe("treatment options", () => {
  test("three overview cards with badge, schedule and monthly cost", async ({ page }) => {
    await page.goto("/treatment-options");
    const expected = [
      { name: "Injectable TRT", badge: "Excellent", cost: "£15-65" },
      { name: "Topical Applications", badge: "Good", cost: "£50-75" },
      { name: "Oral Testosterone", badge: "Moderate", cost: "£90-200" },
    ];
    for (const { name, badge, cost } of expected) {
      const card = main(page).getByRole("article", { name });
      // The badge reads "Effectiveness: Excellent" to screen readers and "Excellent" on screen.
      await expect(card.getByText(`Effectiveness: ${badge}`, { exact: true })).toBeVisible();
      await expect(card.getByText("Schedule")).toBeVisible();
      await expect(card.getByText("Monthly cost")).toBeVisible();
      await expect(card.getByText(cost)).toBeVisible();
    }
  });

  test("the details accordion keeps one treatment open and can close it", async ({ page }) => {
    await page.goto("/treatment-options");
    const details = page.getByRole("region", { name: "Treatment details" });
    const summaries = await questions(details, treatmentOptions.length);
    await expectOpen(summaries, null);

    await summaries.nth(0).click();
    await expectOpen(summaries, 0);
    await expect(summaries.nth(0)).toContainText("Injectable TRT");
    const panel = answerOf(summaries.nth(0));
    for (const heading of [
      "Pros",
      "Cons",
      "Available preparations",
      "Dosing schedule",
      "Monthly cost",
    ]) {
      await expect(panel.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    }
    await expect(panel.getByText("Testosterone cypionate")).toBeVisible();

    await summaries.nth(2).click();
    await expectOpen(summaries, 2);
    await expect(summaries.nth(2)).toContainText("Oral Testosterone");
    await expect(answerOf(summaries.nth(2))).toBeVisible();
    await expect(panel).toBeHidden();

    await summaries.nth(2).click();
    await expectOpen(summaries, null);
  });

  test("calls to action go to consultation and register interest", async ({ page }) => {
    await page.goto("/treatment-options");
    await expectLink(main(page), "Learn About Consultations", "/consultation");
    await expectLink(main(page), "Register Your Interest", "/register-interest");
  });
});

test.describe("consultation", () => {
  test("the four requirements and the bookings placeholder", async ({ page }) => {
    await page.goto("/consultation");
    const requirements = page.getByRole("region", { name: "What you will need" });
    await expect(requirements.getByRole("listitem")).toHaveCount(4);
    await expect(requirements).toContainText(
      "Two results at least four weeks apart, both below 12 nmol/L.",
    );
    await expect(requirements).toContainText("Taken before 10am");
    await expect(requirements).toContainText(
      "Total testosterone, free testosterone, LH, FSH and SHBG.",
    );
    await expect(requirements).toContainText("medications and supplements");
    await expect(requirements).toContainText("health conditions");

    const booking = main(page).getByRole("heading", { name: "Bookings Not Yet Available" });
    await expect(booking).toBeVisible();
    await expectLink(main(page), "Register Your Interest", "/register-interest");
  });
});

test.describe("contact", () => {
  test("details from the site config, hours, urgent advice and no form", async ({ page }) => {
    await page.goto("/contact");
    const m = main(page);
    await expect(m.getByText("1 Example Street")).toBeVisible();
    await expect(m.getByRole("link", { name: "020 0000 0000" })).toHaveAttribute(
      "href",
      "tel:+442000000000",
    );
    await expect(m.getByRole("link", { name: "hello@example.co.uk" })).toHaveAttribute(
      "href",
      "mailto:hello@example.co.uk",
    );
    const hours = page.getByRole("region", { name: "Opening hours" });
    await expect(hours).toContainText("Monday-Friday");
    await expect(hours).toContainText("9:00 AM - 6:00 PM");
    await expect(hours).toContainText("Closed");
    await expect(m.getByRole("note", { name: "Need urgent medical help?" })).toContainText(
      "NHS 111",
    );
    await expect(m.getByRole("note", { name: "Need urgent medical help?" })).toContainText("GP");
    await expect(m.locator("form")).toHaveCount(0);
    await expectLink(m, "Register Your Interest", "/register-interest");
    const clinic = (await jsonLdTypes(page)).find((d) => d["@type"] === "MedicalClinic");
    expect(clinic).toMatchObject({ email: "hello@example.co.uk" });
  });
});

test.describe("policies", () => {
  const policies = [
    "/privacy-policy",
    "/cookie-policy",
    "/terms-of-service",
    "/shipping-policy",
    "/refund-policy",
  ] as const;
  for (const path of policies) {
    test(`${path} is dated January 2025, version 1.0, with working contents links`, async ({
      page,
    }) => {
      await page.goto(path);
      const m = main(page);
      await expect(m.getByText("January 2025").first()).toBeVisible();
      await expect(m.getByText("1.0", { exact: true })).toBeVisible();
      const contents = page.getByRole("navigation", { name: "On this page" }).getByRole("link");
      expect(await contents.count()).toBeGreaterThan(1);
      const last = contents.last();
      const target = (await last.getAttribute("href")) ?? "";
      await last.click();
      await expect(page.locator(target)).toBeInViewport();
    });
  }

  test("privacy policy lists the three data categories", async ({ page }) => {
    await page.goto("/privacy-policy");
    const section = page.getByRole("region", { name: "The data we collect" });
    for (const category of ["Personal details", "Medical information", "Digital information"]) {
      await expect(section.getByText(new RegExp(`^${category}:`))).toBeVisible();
    }
  });

  test("terms say they apply once services launch after regulatory approval", async ({ page }) => {
    await page.goto("/terms-of-service");
    await expect(main(page).getByText(/Effective:/)).toBeVisible();
    await expect(main(page).getByRole("note")).toContainText(
      "apply once our services launch after regulatory approval",
    );
  });
});
