/**
 * Screenshots of the content pages at 390 px and 1280 px into screenshots/content/.
 * Start a server over a build first, then point this at it:
 *
 *   BUILD_DIR=build-content PORT=3311 HSTS=false npm exec -- node server/index.ts
 *   SHOT_ORIGIN=http://127.0.0.1:3311 npm exec -- node scripts/screenshots-content.ts [/path ...]
 */
import { mkdirSync } from "node:fs";
import path from "node:path";

import { chromium } from "@playwright/test";

import { CONSENT_STORAGE_KEY } from "../app/lib/consent/consent-record.ts";
import { chromiumLaunch } from "../playwright.config.ts";

const origin = process.env.SHOT_ORIGIN ?? "http://127.0.0.1:3311";
const outDir = path.resolve("screenshots", "content");
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
];
const widths = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 800 },
];
// A stored choice hides the consent banner, which would otherwise cover the page foot.
const consent = JSON.stringify({
  version: 1,
  essential: true,
  analytics: false,
  functional: false,
  marketing: false,
  decidedAt: "2026-01-01T00:00:00.000Z",
});

const only = process.argv.slice(2);
const targets = only.length > 0 ? only : contentPaths;
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch(chromiumLaunch);
try {
  for (const { name, width, height } of widths) {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.addInitScript(
      ([key, value]) => {
        localStorage.setItem(key, value);
      },
      [CONSENT_STORAGE_KEY, consent] as const,
    );
    const page = await context.newPage();
    for (const route of targets) {
      await page.goto(origin + route, { waitUntil: "networkidle" });
      const file = path.join(outDir, `${route === "/" ? "home" : route.slice(1)}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (process.env.SHOT_TILES) {
        // Tall phone pages are unreadable when scaled down whole: also save them in tiles.
        const total = await page.evaluate(() => document.documentElement.scrollHeight);
        const tile = 1200;
        for (let y = 0, i = 1; y < total; y += tile, i++) {
          const clip = { x: 0, y, width, height: Math.min(tile, total - y) };
          await page.screenshot({
            path: file.replace(".png", `-part${i}.png`),
            fullPage: true,
            clip,
          });
        }
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
}
