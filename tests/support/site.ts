/**
 * What the quality specs (a11y, budgets, keyboard, reflow, seo, delivery) share: the list
 * of pages taken from the route table, a pre-made cookie choice, and focus checks.
 */
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, type Locator, type Page, expect } from "@playwright/test";

import {
  CONSENT_STORAGE_KEY,
  essentialOnly,
  serializeConsent,
} from "../../app/features/consent/consent-record.ts";
import { prerenderedPaths } from "../../app/prerendered-paths.ts";
import { renderSkippedContent } from "../../scripts/lib/skipped-content.ts";

/**
 * Every prerendered page of app/routes.ts ("/" and "/team" ...), in route-table order.
 * The email-link pages need a token: tests/e2e/links.spec.ts and the link states of the
 * a11y and HTML checks cover them.
 */
export const staticPaths: string[] = [...prerenderedPaths];

/** A path no route matches: the catch-all 404 page, checked alongside the real pages. */
export const notFoundPath = "/this-page-does-not-exist";

/** The static pages plus the 404 page: everything a visitor can land on. */
export const allPages: string[] = [...staticPaths, notFoundPath];

/** The localStorage key of the cookie choice. */
export const CONSENT_KEY = CONSENT_STORAGE_KEY;

/** Every static route with the main heading it must show (app/content/pages.ts). */
export const staticRoutes: { path: string; heading: string }[] = [
  { path: "/", heading: "Expert TRT for the Modern Man" },
  { path: "/our-approach", heading: "Our Approach" },
  { path: "/team", heading: "Meet the Team" },
  { path: "/trt-overview", heading: "Testosterone Replacement Therapy" },
  { path: "/faq", heading: "Frequently Asked Questions" },
  { path: "/services", heading: "Our Services" },
  { path: "/register-interest", heading: "Register Your Interest" },
  { path: "/quiz", heading: "ADAM Symptom Quiz" },
  { path: "/pricing", heading: "Transparent Pricing" },
  { path: "/treatment-options", heading: "TRT Treatment Options" },
  { path: "/consultation", heading: "TRT Consultation" },
  { path: "/contact", heading: "Contact Us" },
  { path: "/privacy-policy", heading: "Privacy Policy" },
  { path: "/terms-of-service", heading: "Terms of Service" },
  { path: "/cookie-policy", heading: "Cookie Policy" },
  { path: "/shipping-policy", heading: "Shipping Policy" },
  { path: "/refund-policy", heading: "Refund Policy" },
];

export const viewports = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * Stores a cookie choice before any page script runs, so the consent banner stays away
 * in tests that are not about consent.
 */
export async function seedConsent(context: BrowserContext) {
  await context.addInitScript(
    ([key, value]) => {
      window.localStorage.setItem(key, value);
    },
    [CONSENT_STORAGE_KEY, serializeConsent(essentialOnly)] as const,
  );
}

/** The pages with an island that React hydrates (app/lib/island.tsx, decision 126). */
export const hydratedPaths = ["/quiz", "/pricing", "/register-interest"];

/**
 * Loads a page and waits until it is ready: React has hydrated it where its route asks for
 * that, otherwise the document has loaded (its controls run on the inline page script from
 * the first paint), and its fonts are in, so boxes have their final size. Events, not the
 * 500 ms of network silence that "networkidle" waits out on every load. A 404 page answers
 * 404, every other page 200.
 */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), `status of ${path}`).toBe(path === notFoundPath ? 404 : 200);
  await waitForHydration(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return response;
}

/** Buttons without a `type` attribute in the live document, described for the report. */
export function untypedButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("button:not([type])")].map(
      (b) => b.outerHTML.slice(0, 120) || "<button>",
    ),
  );
}

/** A plain mouse click at the centre of the element: no hover before it. */
export async function mouseClick(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`${target.toString()} has no box`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** A short description of the focused element, for failure messages. */
export async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "<body>";
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${name}"`;
  });
}

/**
 * Whether the focused element shows a focus indicator: an outline, or a box-shadow ring
 * that the unfocused element does not have. The skip link's target (<main tabindex=-1>) is
 * a programmatic focus target, not a control, so it is exempt.
 */
export async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    if (el.tagName === "MAIN") return true;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none" && style.boxShadow !== "";
    const rect = el.getBoundingClientRect();
    const onScreen =
      rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
    return (outline || ring) && onScreen;
  });
}

/**
 * Presses Tab until `target` has focus. Every stop on the way must show visible focus and
 * differ from the previous one (focus is never stuck), so a whole keyboard journey checks
 * WCAG 2.4.7 and 2.1.2 as it goes.
 */
export async function tabTo(page: Page, target: Locator, { max = 80, reverse = false } = {}) {
  // Focus may have moved since the last call (Enter, Escape, a click): start from here.
  await page.evaluate(() => {
    (window as { __previousFocus?: Element | null }).__previousFocus = document.activeElement;
  });
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(reverse ? "Shift+Tab" : "Tab");
    const where = await describeFocus(page);
    const moved = await page.evaluate(() => {
      const w = window as { __previousFocus?: Element | null };
      const moved = document.activeElement !== w.__previousFocus;
      w.__previousFocus = document.activeElement;
      return moved;
    });
    expect(moved, `Tab moved focus away from ${where}`).toBe(true);
    expect(await focusIsVisible(page), `focus is visible on ${where}`).toBe(true);
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab did not reach ${target.toString()} within ${max} presses`);
}

/** Asserts the focused element shows a visible indicator. */
export async function expectVisibleFocus(page: Page) {
  expect(await focusIsVisible(page), `focus is visible on ${await describeFocus(page)}`).toBe(true);
}

/**
 * Waits until the page is ready for clicks: on a page that ships React (it has a module
 * script), until root.tsx has marked it hydrated; on any other page, until it has loaded.
 */
export async function waitForHydration(page: Page) {
  await page.waitForLoadState("load");
  await page.waitForFunction(
    () =>
      document.querySelector('script[type="module"]') === null ||
      document.documentElement.dataset.hydrated === "true",
  );
}

/**
 * The element's role, name and expanded state as Chromium's accessibility tree exposes
 * them to screen readers. Native disclosures (`<summary>`, a `popovertarget` button) carry
 * no aria-expanded attribute: the browser reports their state, so that is what is read.
 */
export async function accessibleState(
  target: Locator,
): Promise<{ role: string; name: string; expanded: boolean | undefined }> {
  const page = target.page();
  const marker = `ax-${Math.random().toString(36).slice(2)}`;
  await target.evaluate((el, value) => el.setAttribute("data-ax-probe", value), marker);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp.send("DOM.querySelector", {
      nodeId: root.nodeId,
      selector: `[data-ax-probe="${marker}"]`,
    });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", {
      nodeId,
      fetchRelatives: false,
    });
    const node = nodes[0];
    const expanded = node?.properties?.find((p) => p.name === "expanded")?.value.value as
      boolean | undefined;
    return {
      role: String(node?.role?.value ?? ""),
      name: String(node?.name?.value ?? ""),
      expanded,
    };
  } finally {
    await cdp.detach();
    await target.evaluate((el) => el.removeAttribute("data-ax-probe")).catch(() => {});
  }
}

/** Waits until the element's accessible expanded state is `expanded`. */
export async function expectExpanded(target: Locator, expanded: boolean) {
  await expect
    .poll(async () => (await accessibleState(target)).expanded ?? false, {
      message: `expanded state of ${target.toString()}`,
    })
    .toBe(expanded);
}

/**
 * The phone menu's toggle: the `<summary>` of `<details data-menu="phone">` (decision 105).
 * Its accessible name is "Open menu" or "Close menu", following its state.
 */
export function phoneMenuToggle(page: Page): Locator {
  return page.locator('details[data-menu="phone"] > summary');
}

/** A desktop submenu's toggle: the `<summary>` of a `<details data-menu="desktop">`. */
export function desktopMenuToggle(page: Page, label: string): Locator {
  return page.locator('details[data-menu="desktop"] > summary', { hasText: label });
}

type Violation = { directive: string; blocked: string; sample: string };

declare global {
  interface Window {
    __cspViolations: Violation[];
  }
}

/**
 * Starts recording, before any page script runs, every CSP violation event and every
 * console message about a policy.
 */
export async function watchCsp(page: Page) {
  const consoleProblems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/content security policy|refused to|permissions-policy|permissions policy/i.test(text)) {
      consoleProblems.push(`${message.type()}: ${text}`);
    }
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      });
    });
  });
  return {
    consoleProblems,
    violations: () => page.evaluate(() => window.__cspViolations),
  };
}

/**
 * WCAG 2.2 AA violations axe finds on the page (or part of it): rule, impact, target, summary.
 * `exclude` leaves out a part axe cannot enter: a sandboxed frame that runs no script
 * (the console's email preview) never answers axe's run inside it.
 * Legacy mode runs axe once in the page, where the default opens a second page to merge each
 * frame's results: the only frame on the site is that preview. With only violations asked
 * for, axe builds no selectors for what passes. Together they halve each call
 * (docs/benchmarks.md), and axe runs about a hundred times a run.
 */
export async function axeViolations(
  page: Page,
  include?: string,
  exclude?: string,
): Promise<string[]> {
  // options() replaces what withTags() set, so it comes first.
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .setLegacyMode();
  await renderSkippedContent(page);
  if (include) builder = builder.include(include);
  if (exclude) builder = builder.exclude(exclude);
  const { violations } = await builder.analyze();
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact ?? "?"}) ${n.target.join(" ")}\n    ${n.failureSummary?.replaceAll("\n", "\n    ") ?? v.help}`,
    ),
  );
}

/**
 * What makes the page scroll sideways (WCAG 1.4.10), naming the widest things that stick out;
 * "" when nothing does. What is skipped until near counts too.
 */
export async function horizontalOverflow(page: Page): Promise<string> {
  await renderSkippedContent(page);
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const culprits = [...document.querySelectorAll("body *")]
      .filter((el) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 0 && rect.right > width + 1;
      })
      .slice(0, 5)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`);
    return { scrollWidth: root.scrollWidth, clientWidth: width, culprits };
  });
  if (scrollWidth <= clientWidth) return "";
  return `${scrollWidth}px wide in ${clientWidth}px; sticking out: ${culprits.join(", ")}`;
}
