/**
 * Screenshots of the production build at phone (390 px) and desktop (1280 px) width,
 * written to screenshots/. Run `npm run build` first.
 *
 *   npm run screenshots                 home page states and every route
 *   npm run screenshots -- /faq /quiz   only these routes
 */
import { mkdirSync } from "node:fs";
import path from "node:path";

import { type Browser, chromium } from "@playwright/test";

import { prerenderedPaths } from "../app/prerendered-paths.ts";
import { chromiumLaunch } from "./lib/chromium.ts";
import { startServer } from "./lib/server-process.ts";
import { renderSkippedContent } from "./lib/skipped-content.ts";

const port = Number(process.env.SCREENSHOT_PORT ?? 3290);
const origin = `http://127.0.0.1:${port}`;
const outDir = path.resolve("screenshots");
const widths = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];
const consent = JSON.stringify({
  version: 1,
  essential: true,
  analytics: false,
  functional: false,
  marketing: false,
  decidedAt: new Date().toISOString(),
});

async function shoot(
  browser: Browser,
  route: string,
  label: string,
  options: { consent: boolean; menu?: boolean },
) {
  for (const size of widths) {
    if (options.menu && size.name !== "phone") continue;
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
    });
    if (options.consent) {
      await context.addInitScript(
        (value) => localStorage.setItem("meridian-clinic.cookie-consent", value),
        consent,
      );
    }
    const page = await context.newPage();
    await page.goto(`${origin}${route}`, { waitUntil: "networkidle" });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    if (options.menu) await page.getByRole("button", { name: "Open menu" }).click();
    const file = path.join(outDir, `${label}-${size.name}.png`);
    const fullPage = !options.menu && options.consent;
    if (fullPage) await renderSkippedContent(page);
    await page.screenshot({ path: file, fullPage });
    console.log(file);
    await context.close();
  }
}

// `npm run build` first: the launcher reports a missing build.
const server = await startServer({ port, keepOutput: false });
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunch);
try {
  const only = process.argv.slice(2);
  if (only.length === 0) {
    await shoot(browser, "/", "home-consent-banner", { consent: false });
    await shoot(browser, "/", "home-menu-open", { consent: true, menu: true });
  }
  const routes = only.length > 0 ? only : prerenderedPaths;
  for (const route of routes) {
    const label = route === "/" ? "home" : route.slice(1).replaceAll("/", "-");
    await shoot(browser, route, label, { consent: true });
  }
} finally {
  await browser.close();
  await server.stop();
}
