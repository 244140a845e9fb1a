/**
 * Screenshots of /quiz and /pricing at 390 px and 1280 px, written to screenshots/tools/.
 * Start the server first, in another shell:
 *
 *   BUILD_DIR=build-tools PORT=3321 HSTS=false npm exec -- node server/index.ts
 *   npm exec -- node scripts/screenshots-tools.ts
 */
import { mkdirSync } from "node:fs";
import path from "node:path";

import { type Page, chromium } from "@playwright/test";

import { chromiumLaunch } from "../playwright.config.ts";

const origin = process.env.ORIGIN ?? "http://127.0.0.1:3321";
const outDir = path.resolve("screenshots", "tools");
const widths = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 800 },
];
const consent = JSON.stringify({
  version: 1,
  essential: true,
  analytics: false,
  functional: false,
  marketing: false,
  decidedAt: "2026-01-01T00:00:00.000Z",
});

async function ready(page: Page, url: string) {
  await page.goto(`${origin}${url}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage });
  console.log(`screenshots/tools/${name}.png`);
}

const browser = await chromium.launch(chromiumLaunch);
mkdirSync(outDir, { recursive: true });
try {
  for (const size of widths) {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      deviceScaleFactor: 1,
    });
    await context.addInitScript((value) => {
      localStorage.setItem("meridian-clinic.cookie-consent", value);
    }, consent);
    const page = await context.newPage();

    await ready(page, "/quiz");
    await shoot(page, `quiz-start-${size.name}`);
    await page.getByRole("radio", { name: "Often" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: "Sometimes" }).click();
    await shoot(page, `quiz-question-${size.name}`, false);
    for (let q = 2; q <= 10; q += 1) {
      await page.getByRole("radio", { name: "Sometimes" }).click();
      await page.getByRole("button", { name: /^(Next|View Results)$/ }).click();
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, `quiz-result-${size.name}`);
    await page
      .getByRole("main")
      .locator("div.max-w-3xl.mx-auto")
      .screenshot({ path: path.join(outDir, `quiz-result-card-${size.name}.png`) });

    await ready(page, "/pricing");
    await shoot(page, `pricing-${size.name}`);
    for (const id of ["compare", "breakdown", "other-costs"]) {
      await page
        .locator(`#${id}`)
        .screenshot({ path: path.join(outDir, `pricing-${id}-${size.name}.png`) });
    }
    await ready(page, "/pricing?treatment=nebido&addons=hcg-high,tadalafil");
    await page.locator("#calculator").scrollIntoViewIfNeeded();
    await page.locator("#calculator").screenshot({
      path: path.join(outDir, `pricing-calculator-${size.name}.png`),
    });
    console.log(`screenshots/tools/pricing-calculator-${size.name}.png`);
    await context.close();
  }
  // Without JavaScript: what the prerendered pages give.
  const noJs = await browser.newContext({
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
  });
  const page = await noJs.newPage();
  await page.goto(`${origin}/quiz`);
  await shoot(page, "quiz-nojs-390");
  await noJs.close();
} finally {
  await browser.close();
}
