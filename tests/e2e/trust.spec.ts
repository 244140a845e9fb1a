/**
 * Issue 12: figures that say what they cover, a quiz result that helps and prints on one
 * page, clinicians you can look up, review lines and the accessibility statement.
 */
import { type Page, expect, test } from "@playwright/test";

import { seedConsent } from "../support/site.ts";

test.beforeEach(async ({ context }) => {
  await seedConsent(context);
});

async function finishQuiz(page: Page, answers: string[]) {
  await page.goto("/quiz");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  for (const answer of answers) {
    await page.getByRole("radio", { name: answer, exact: true }).click();
    await page.getByRole("button", { name: /^(Next|View Results)$/ }).click();
  }
}

async function pdfPages(page: Page): Promise<number> {
  const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
  return (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

const answers = [
  "Often",
  "Always",
  "Sometimes",
  "Never",
  "Always",
  "Rarely",
  "Often",
  "Sometimes",
  "Never",
  "Rarely",
];

test("the quiz result explains the score, the highest answers and the next steps, and sends nothing", async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET") requests.push(`${r.method()} ${r.url()}`);
  });
  await finishQuiz(page, answers);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "What your score means" })).toBeVisible();
  await expect(main).toContainText("88%");
  await expect(main).toContainText("60%");
  await expect(main).toContainText("not a diagnosis");
  const top = main.getByRole("region", { name: "The answers that scored highest" });
  await expect(top.getByRole("listitem")).toHaveCount(2);
  await expect(top).toContainText("short of energy");
  await expect(top).toContainText("enjoying life less");
  const next = main.getByRole("region", { name: "What to do next" });
  await expect(next).toContainText("early in the morning");
  await expect(next).toContainText("at least four weeks apart");
  await expect(next).toContainText("LH and FSH");
  await expect(next).toContainText("GP");
  await expect(next).toContainText("NHS");
  await expect(main.getByRole("region", { name: "When to get help straight away" })).toContainText(
    "999",
  );
  expect(requests).toEqual([]);
});

test("the quiz result prints on one A4 page", async ({ page }) => {
  // Ten answers and a PDF render: slow on a loaded machine, not a speed check.
  test.setTimeout(240_000);
  await finishQuiz(page, answers);
  await expect(page.getByRole("heading", { name: "What to do next" })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  expect(await pdfPages(page)).toBe(1);
  // The counter itself: a long page prints on several.
  await page.goto("/pricing");
  expect(await pdfPages(page)).toBeGreaterThan(1);
});

test("every team member shows a seven-digit GMC number linked to the register", async ({
  page,
}) => {
  await page.goto("/team");
  const cards = page.getByRole("main").getByRole("article");
  await expect(cards).toHaveCount(2);
  for (const card of await cards.all()) {
    const text = await card.innerText();
    const gmc = /GMC number (\d{7})\b/.exec(text)?.[1];
    expect(gmc, text).toBeTruthy();
    await expect(card.getByRole("link", { name: /GMC register/ })).toHaveAttribute(
      "href",
      `https://www.gmc-uk.org/doctors/${gmc}`,
    );
  }
});

for (const path of ["/trt-overview", "/treatment-options", "/faq", "/consultation"]) {
  test(`${path} shows who medically reviewed it and when`, async ({ page }) => {
    await page.goto(path);
    const line = page.getByText(/^Medically reviewed by .+, .+, on \d{1,2} \w+ \d{4}$/);
    await expect(line).toBeVisible();
    await expect(line.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}$/);
  });
}

test("/accessibility answers 200 and the footer links to it", async ({ page }) => {
  const response = await page.goto("/accessibility");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Accessibility Statement");
  await expect(page.getByRole("main")).toContainText("WCAG");
  await page.goto("/");
  await expect(
    page.getByRole("contentinfo").getByRole("link", { name: "Accessibility" }),
  ).toHaveAttribute("href", "/accessibility");
});

test("the calculator says what its totals cover and shows year 1 with consultation and tests", async ({
  page,
}) => {
  await page.goto("/pricing");
  const region = page.getByRole("complementary", { name: "Your estimate" });
  await expect(region).toContainText("Medication and membership only");
  await expect(region).toContainText("With consultation and tests");
  // Cypionate at £15: the worked example's £1,485 with ten months at £15 instead of £45.
  await expect(region.getByRole("definition").filter({ hasText: "£1,185" })).toBeVisible();
  await expect(region.getByRole("link", { name: "See the cost breakdown" })).toHaveAttribute(
    "href",
    "#breakdown",
  );
});
