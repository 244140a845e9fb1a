/**
 * Renders the 1200 x 630 social-sharing card (public/og-image.png) with Chromium.
 * Run it again after a change of name or colours: `node scripts/make-og-image.ts`.
 * The PNG is committed, so builds never need a browser.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "@playwright/test";

import { chromiumLaunch } from "./lib/chromium.ts";
import { clinic } from "../app/content/clinic.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "public", "og-image.png");

// The brand mark: the short name, then the rest of the full name in smaller type.
const { shortName } = clinic;
const rest = clinic.name.startsWith(shortName) ? clinic.name.slice(shortName.length).trim() : "";

const require = createRequire(import.meta.url);
const fontFile =
  require.resolve("@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2");
const font = readFileSync(fontFile).toString("base64");

// Colours from the design tokens in app/app.css.
const html = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><style>
@font-face { font-family: Serif; src: url(data:font/woff2;base64,${font}) format("woff2"); font-weight: 200 900; }
* { margin: 0; box-sizing: border-box; }
body { width: 1200px; height: 630px; background: #102d2c; color: #fff;
  font-family: system-ui, "Segoe UI", Roboto, Arial, sans-serif; }
.card { position: relative; height: 100%; padding: 84px 96px; display: flex; flex-direction: column; }
.mark { display: flex; align-items: center; gap: 20px; }
.mark span { font-family: Serif; font-size: 40px; font-weight: 600; letter-spacing: -0.01em; }
.mark small { font-family: system-ui, sans-serif; font-size: 24px; color: #d5e7e4; margin-left: 10px; font-weight: 500; }
h1 { font-family: Serif; font-weight: 500; font-size: 72px; line-height: 1.1; letter-spacing: -0.01em; margin-top: 28px; max-width: 880px; }
p { margin-top: auto; font-size: 23px; white-space: nowrap; color: #d5e7e4; display: flex; gap: 18px; align-items: center; }
p i { flex: none; width: 8px; height: 8px; border-radius: 50%; background: #c9a46a; display: inline-block; }
.rule { margin-top: 64px; width: 96px; height: 4px; background: #c9a46a; }
.arc { position: absolute; right: -170px; top: 50%; transform: translateY(-50%); width: 560px; height: 560px; opacity: .14; }
</style></head><body><div class="card">
  <div class="mark">
    <svg width="56" height="56" viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="16" r="15" fill="rgba(255,255,255,.12)"/><path d="M16 5a11 11 0 0 1 0 22M16 5a11 11 0 0 0 0 22M5 16h22" fill="none" stroke="#fff" stroke-width="1.6"/></svg>
    <span>${shortName}<small>${rest.replaceAll("'", "&rsquo;")}</small></span>
  </div>
  <div class="rule"></div>
  <h1>Specialist, doctor-led care for men&rsquo;s hormone health</h1>
  <p>GMC-registered clinicians <i></i> Remote care across the UK <i></i> Opening after CQC registration</p>
  <svg class="arc" viewBox="0 0 32 32" aria-hidden="true"><path d="M16 1a15 15 0 0 1 0 30M16 1a15 15 0 0 0 0 30M1 16h30M16 5a11 11 0 0 1 0 22M16 5a11 11 0 0 0 0 22" fill="none" stroke="#fff" stroke-width=".5"/></svg>
</div></body></html>`;

const browser = await chromium.launch(chromiumLaunch);
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: out, type: "png" });
} finally {
  await browser.close();
}
console.log(`wrote ${path.relative(root, out)} (${(statSync(out).size / 1024).toFixed(0)} KB)`);
