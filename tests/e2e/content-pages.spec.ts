/**
 * The content pages once a visitor acts: links followed, the single-open accordions and
 * the policies' contents. What each page shows as it loads: every-page.spec.ts.
 */
import { type Locator, type Page, expect, test } from "@playwright/test";

import { faqGroups } from "../../app/content/faq.ts";
import { treatmentOptions } from "../../app/content/treatments.ts";
import { expectExpanded, mouseClick, openPage, seedConsent } from "../support/site.ts";

// A stored cookie choice keeps the consent banner from covering the foot of the page.
test.beforeEach(({ context }) => seedConsent(context));

test("the footer's 'Ongoing Monitoring' lands on the timeline", async ({ page }) => {
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

/** All closed; the list's first click, a plain one with no hover before it, opens its first. */
async function openFirst(page: Page, summaries: Locator) {
  await expectOpen(summaries, null);
  await expect(answerOf(summaries.nth(0))).toBeHidden();
  await mouseClick(page, summaries.nth(0));
  await expectOpen(summaries, 0);
  await expect(answerOf(summaries.nth(0))).toBeVisible();
}

test("the FAQ's four groups each keep one answer open, independently of each other", async ({
  page,
}) => {
  await openPage(page, "/faq");
  for (const group of faqGroups) {
    const region = page.getByRole("region", { name: group.title, exact: true });
    await expect(region.getByRole("heading", { level: 2 })).toHaveText(group.title);
    const summaries = await questions(region, group.items.length);
    await openFirst(page, summaries);
    await summaries.nth(1).click();
    await expectOpen(summaries, 1);
    await expect(answerOf(summaries.nth(0))).toBeHidden();

    // An open item can be closed again.
    await summaries.nth(1).click();
    await expectOpen(summaries, null);
  }

  const first = page.getByRole("region", { name: "Getting Started", exact: true });
  const last = page.getByRole("region", { name: "Logistics", exact: true });
  await (await questions(first, faqGroups[0]!.items.length)).first().click();
  await (await questions(last, faqGroups.at(-1)!.items.length)).first().click();
  await expect(first.locator("details").first()).toHaveAttribute("open", "");
  await expect(last.locator("details").first()).toHaveAttribute("open", "");

  // The answers state the injection frequency and the failed-payment rule.
  const main = page.getByRole("main");
  await main.locator("summary", { hasText: "How often would I need injections?" }).click();
  await expect(main.getByText(/two to three times per week/)).toBeVisible();
  const payment = main.locator("summary", { hasText: "What happens if a payment fails?" });
  await payment.click();
  const answer = answerOf(payment);
  await expect(answer).toContainText("retried automatically");
  await expect(answer).toContainText("update your card details at any time in your account");
});

test("the treatment details accordion keeps one treatment open and can close it", async ({
  page,
}) => {
  await openPage(page, "/treatment-options");
  const details = page.getByRole("region", { name: "Treatment details" });
  const summaries = await questions(details, treatmentOptions.length);
  await openFirst(page, summaries);
  await expect(summaries.nth(0)).toContainText("Injectable TRT");
  const panel = answerOf(summaries.nth(0));
  const sections = ["Pros", "Cons", "Available preparations", "Dosing schedule", "Monthly cost"];
  for (const name of sections) {
    await expect(panel.getByRole("heading", { name, exact: true })).toBeVisible();
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

for (const path of [
  "/privacy-policy",
  "/cookie-policy",
  "/terms-of-service",
  "/shipping-policy",
  "/refund-policy",
]) {
  test(`${path}'s contents links lead to their sections`, async ({ page }) => {
    await page.goto(path);
    const contents = page.getByRole("navigation", { name: "On this page" }).getByRole("link");
    expect(await contents.count()).toBeGreaterThan(1);
    const last = contents.last();
    const target = (await last.getAttribute("href")) ?? "";
    await last.click();
    await expect(page.locator(target)).toBeInViewport();
  });
}
