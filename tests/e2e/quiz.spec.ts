import { type Page, expect, test } from "@playwright/test";

import { axeViolations, seedConsent } from "../support/site.ts";

const ANSWERS = ["Never", "Rarely", "Sometimes", "Often", "Always"] as const;

/** Points per question (0-4) that add up to `total`, filling from the first question. */
function pointsFor(total: number): number[] {
  let left = total;
  return Array.from({ length: 10 }, () => {
    const p = Math.min(4, left);
    left -= p;
    return p;
  });
}

// Skip the cookie banner: a stored choice, exactly as the banner would save it.
test.beforeEach(async ({ context }) => {
  await seedConsent(context);
});

const next = (page: Page) => page.getByRole("button", { name: /^(Next|View Results)$/ });
const previous = (page: Page) => page.getByRole("button", { name: "Previous" });
/** The result's heading, naming the risk band. */
const band = (page: Page, name: string) =>
  page.getByRole("main").getByRole("heading", { level: 2, name });

async function answer(page: Page, name: string) {
  await page.getByRole("radio", { name }).click();
  await next(page).click();
}

async function openQuiz(page: Page) {
  await page.goto("/quiz");
  // The radios respond only once React has hydrated (root.tsx sets the marker).
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toContainText(
    "How often",
  );
}

async function answerAll(page: Page, points: number[]) {
  for (const [i, p] of points.entries()) {
    await expect(page.getByText(`Question ${i + 1} of 10`, { exact: true })).toBeVisible();
    await answer(page, ANSWERS[p]!);
  }
}

test("Previous and Next are enabled only when they should be, and the progress label counts answers", async ({
  page,
}) => {
  await openQuiz(page);
  // A native <progress>, named by the visible "N% Complete" text (decision 054).
  const bar = (percent: number) => page.getByRole("progressbar", { name: `${percent}% Complete` });
  await expect(page.getByText("0% Complete")).toBeVisible();
  await expect(bar(0)).toHaveJSProperty("value", 0);
  await expect(previous(page)).toBeDisabled();
  await expect(next(page)).toBeDisabled();
  await expect(next(page)).toHaveText("Next");

  await page.getByRole("radio", { name: "Often" }).click();
  await expect(page.getByText("10% Complete")).toBeVisible();
  await expect(bar(10)).toHaveJSProperty("value", 10);
  await expect(next(page)).toBeEnabled();
  await next(page).click();

  await expect(page.getByText("Question 2 of 10", { exact: true })).toBeVisible();
  await expect(previous(page)).toBeEnabled();
  await expect(next(page)).toBeDisabled();
  await page.getByRole("radio", { name: "Always" }).click();
  await expect(page.getByText("20% Complete")).toBeVisible();
  // Going back does not undo an answer.
  await previous(page).click();
  await expect(page.getByText("20% Complete")).toBeVisible();
  await next(page).click();

  for (let q = 2; q <= 9; q += 1) await answer(page, "Never");
  await expect(page.getByText("Question 10 of 10", { exact: true })).toBeVisible();
  await expect(next(page)).toHaveText("View Results");
  await expect(next(page)).toBeDisabled();
  await page.getByRole("radio", { name: "Rarely" }).click();
  await expect(next(page)).toBeEnabled();
});

test("an earlier answer can be changed, and the result shows the new total and what to do", async ({
  page,
}) => {
  await openQuiz(page);
  // Question 1: Always (4), then Never for the rest: total 4.
  await answer(page, "Always");
  for (let q = 2; q <= 5; q += 1) await answer(page, "Never");
  // Back to question 1: the earlier answer is still chosen; change it to Never.
  for (let q = 6; q > 1; q -= 1) await previous(page).click();
  await expect(page.getByText("Question 1 of 10", { exact: true })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Always" })).toBeChecked();
  await page.getByRole("radio", { name: "Never" }).click();
  await expect(page.getByRole("radio", { name: "Never" })).toBeChecked();
  for (let q = 1; q <= 5; q += 1) await next(page).click();
  // Questions 6-10: Always (4 × 5 = 20). Total is 20, not 24.
  for (let q = 6; q <= 10; q += 1) await answer(page, "Always");
  await expect(page.getByText("You scored 20 out of 40.")).toBeVisible();
  // Each total's band, boundaries included: riskBandFor in scoring.test.ts.
  const heading = band(page, "Moderate Risk");
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByRole("img", { name: /Where your total falls/ })).toBeVisible();
  await expect(page.getByText(/screening aid, not a diagnosis/).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Register Your Interest" }).last()).toHaveAttribute(
    "href",
    "/register-interest",
  );
  await expect(page.getByRole("main").getByRole("link", { name: "Return Home" })).toHaveAttribute(
    "href",
    "/",
  );
});

test("the quiz can be completed with the keyboard alone", async ({ page }) => {
  await openQuiz(page);
  // Tab from the top of the page into the answers.
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press("Tab");
    const onRadio = await page.evaluate(() =>
      document.activeElement?.matches('input[type="radio"]'),
    );
    if (onRadio) break;
  }
  await expect(page.getByRole("radio", { name: "Never" })).toBeFocused();

  // Question 1: arrow down twice selects Sometimes (2): in a native radio group an arrow
  // key moves focus to the next radio and checks it.
  await arrowDownTo(page, "Rarely");
  await arrowDownTo(page, "Sometimes");
  await expect(page.getByRole("radio", { name: "Sometimes" })).toBeChecked();
  await page.keyboard.press("Tab"); // Previous is disabled, so Tab reaches Next
  await expect(next(page)).toBeFocused();
  await page.keyboard.press("Enter");

  // Focus moves to the new question's heading, so a screen reader announces it.
  const heading = page.getByRole("main").getByRole("heading", { level: 2 });
  await expect(heading).toBeFocused();
  await expect(heading).toContainText("Question 2 of 10");

  // Questions 2-10: Tab into the group, Space chooses Never (0); Tab twice to Next.
  for (let q = 2; q <= 10; q += 1) {
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await expect(page.getByRole("radio", { name: "Never" })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(previous(page)).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(next(page)).toBeFocused();
    await page.keyboard.press(q === 10 ? "Space" : "Enter");
  }
  await expect(band(page, "Low Risk")).toBeFocused();
  await expect(page.getByText("You scored 2 out of 40.")).toBeVisible();
});

async function arrowDownTo(page: Page, name: string) {
  await page.keyboard.down("ArrowDown");
  await expect(page.getByRole("radio", { name })).toBeFocused();
  await page.keyboard.up("ArrowDown");
}

test("an answer picked before the page's script has run is kept", async ({ page }) => {
  // Hold back the client entry, as a slow connection would, so the first click lands on
  // the prerendered radios before React has hydrated them.
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/quiz", { waitUntil: "commit" });
  await page.getByRole("radio", { name: "Sometimes" }).click();
  await expect(page.getByRole("radio", { name: "Sometimes" })).toBeChecked();
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByRole("radio", { name: "Sometimes" })).toBeChecked();
  await expect(page.getByText("10% Complete")).toBeVisible();
  await expect(next(page)).toBeEnabled();
  await next(page).click();
  await expect(page.getByText("Question 2 of 10", { exact: true })).toBeVisible();
});

test("each question is a fieldset of radios named by its legend", async ({ page }) => {
  await openQuiz(page);
  const group = page.getByRole("group", { name: /Question 1 of 10: .*How often/ });
  await expect(group).toBeVisible();
  await expect(group.getByRole("radio")).toHaveCount(ANSWERS.length);
  await expect(group.locator("legend h2")).toHaveCount(1);
});

test("without JavaScript the questions and scoring key are readable", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/quiz");
  await expect(page.getByRole("heading", { level: 1, name: "ADAM Symptom Quiz" })).toBeVisible();
  await expect(page.getByText(/needs JavaScript/)).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "evening meal" })).toBeVisible();
  await expect(page.getByText(/21-40, Higher Risk/)).toBeVisible();
  await context.close();
});

// A question's state is checked in a11y.spec.ts, which ends on the lowest band.
test("axe finds no violations on the highest band's result", async ({ page }) => {
  await openQuiz(page);
  await answerAll(page, pointsFor(24));
  await expect(band(page, "Higher Risk")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

/** How many A4 pages the page prints on. */
async function pdfPages(page: Page): Promise<number> {
  const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
  return (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

// Issue 12: a result that helps, and prints on one page.
test("the quiz result explains the score, the highest answers and the next steps, sends nothing, and prints on one A4 page", async ({
  page,
}) => {
  // Ten answers and a PDF render: slow on a loaded machine, not a speed check.
  test.setTimeout(240_000);
  const requests: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET") requests.push(`${r.method()} ${r.url()}`);
  });
  // Often, Always, Sometimes, Never, Always, Rarely, Often, Sometimes, Never, Rarely.
  await openQuiz(page);
  await answerAll(page, [3, 4, 2, 0, 4, 1, 3, 2, 0, 1]);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "What your score means" })).toBeVisible();
  for (const text of ["88%", "60%", "not a diagnosis"]) await expect(main).toContainText(text);
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

  await page.emulateMedia({ media: "print" });
  expect(await pdfPages(page)).toBe(1);
  // The counter itself: a long page prints on several.
  await page.goto("/pricing");
  expect(await pdfPages(page)).toBeGreaterThan(1);
});
