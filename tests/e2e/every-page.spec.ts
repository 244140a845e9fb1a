/**
 * One visit to every page of the route table and the 404 page, at phone and desktop
 * width, as a first-time visitor (the consent banner up, motion reduced); every check that
 * needs only the page as it loads runs on that one visit, each failing on its own (soft) so
 * a page reports all its faults at once:
 * - budgets: every document, script and stylesheet fetched as the page loads and hydrates,
 *   gzipped at level 9 as the precompressed files are, inline scripts included (issue 22,
 *   decision 142: a content page within 15 KB of JavaScript, a page that hydrates 110 KB;
 *   CSS 15 KB, HTML 30 KB);
 * - axe (WCAG 2.2 AA) and no element holding two utilities that set the same thing
 *   (../support/class-conflicts.ts);
 * - no CSP violation or console complaint while it loads and hydrates, prerendered pages
 *   under script hashes;
 * - every <button> in the live document states its type;
 * - the status banner above the header, and the page's main heading;
 * - no request to another origin, down to the end of the page (decision 067);
 * - every focus stop met by Tab from the top: never entirely hidden, its ring at 3:1
 *   (../support/focus.ts);
 * - at phone width, no sideways scrolling at 320 px (WCAG 1.4.10; 200% zoom: reflow.spec.ts);
 * - at desktop width, the head (title, description, canonical URL, social tags, JSON-LD),
 *   every figure the spec gives the page, and what the page shows as it loads: its key
 *   texts, links and structured data (`contents`), the 404 page logging the path asked for.
 * Interactive states (menus, dialogs, the quiz, the form's errors) are in their own specs.
 */
import { gzipSync } from "node:zlib";

import { type Locator, type Page, type Response, expect, test } from "@playwright/test";

import { type PagePath, pages } from "../../app/content/pages.ts";
import { CONSENT_STORAGE_KEY } from "../../app/features/consent/consent-record.ts";
import { sitemapPaths } from "../../app/prerendered-paths.ts";
import { registrationPaths } from "../../contract/registrations.ts";
import { classConflicts } from "../support/class-conflicts.ts";
import { focusProblems } from "../support/focus.ts";
import {
  allPages,
  axeViolations,
  horizontalOverflow,
  hydratedPaths,
  notFoundPath,
  openPage,
  phoneMenuToggle,
  staticRoutes,
  untypedButtons,
  viewports,
  watchCsp,
} from "../support/site.ts";

/** KB (1024 bytes) gzipped. */
const budgets = { css: 15, html: 30, js: { content: 15, hydrated: 110 } } as const;
type Kind = "js" | "css" | "html";

function kindOf(response: Response): Kind | null {
  const type = response.request().resourceType();
  const contentType = response.headers()["content-type"] ?? "";
  if (type === "script" || contentType.includes("javascript")) return "js";
  if (type === "stylesheet" || contentType.includes("text/css")) return "css";
  if (type === "document" || contentType.includes("text/html")) return "html";
  return null;
}

/** Starts weighing what the page fetches; the result adds the inline scripts. */
function weigh(page: Page): () => Promise<Record<Kind, number> & { files: number }> {
  const totals = { js: 0, css: 0, html: 0, files: 0 };
  const pending: Promise<void>[] = [];
  const seen = new Set<string>();
  page.on("response", (response) => {
    const kind = kindOf(response);
    if (!kind || seen.has(response.url())) return;
    seen.add(response.url());
    pending.push(
      response.body().then((body) => {
        totals[kind] += gzipSync(body, { level: 9 }).length;
        totals.files += 1;
      }),
    );
  });
  return async () => {
    await Promise.all(pending);
    const inline = await page.evaluate(() =>
      Array.from(document.querySelectorAll("script:not([src])"))
        .filter((s) => ["", "module", "text/javascript"].includes(s.getAttribute("type") ?? ""))
        .map((s) => s.textContent ?? ""),
    );
    for (const source of inline) totals.js += gzipSync(source, { level: 9 }).length;
    return totals;
  };
}

/** The page's JSON-LD blocks, each of which must parse. */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((text, i) => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`JSON-LD block ${i} does not parse: ${String(error)}\n${text}`);
    }
  });
}

/** Canonical URL, social tags and image, and JSON-LD that parses (pages in the sitemap). */
async function checkHead(page: Page, path: string) {
  const xml = await (await page.request.get("/sitemap.xml")).text();
  const origin = new URL(/<loc>([^<]+)<\/loc>/.exec(xml)?.[1] ?? "http://missing.invalid").origin;
  const head = page.locator("head");
  const canonical = head.locator('link[rel="canonical"]');
  await expect.soft(canonical, `${path}: exactly one canonical link`).toHaveCount(1);
  const expected = new URL(path, origin).href;
  await expect.soft(canonical, `${path}: canonical URL`).toHaveAttribute("href", expected);
  const meta = async (selector: string) => {
    const tag = head.locator(selector);
    await expect.soft(tag, `${path}: ${selector}`).toHaveCount(1);
    const content =
      (await tag
        .first()
        .getAttribute("content")
        .catch(() => null)) ?? "";
    expect.soft(content.trim(), `${path}: ${selector} has content`).not.toBe("");
    return content;
  };
  const description = await meta('meta[name="description"]');
  expect
    .soft(description.length, `${path}: description fits a search result`)
    .toBeLessThanOrEqual(160);
  await meta('meta[property="og:title"]');
  await meta('meta[property="og:description"]');
  expect.soft(await meta('meta[property="og:url"]'), `${path}: og:url`).toBe(expected);
  expect.soft(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  const image = await meta('meta[property="og:image"]');
  expect.soft(await meta('meta[name="twitter:image"]'), `${path}: twitter:image`).toBe(image);
  if (image) {
    expect.soft(new URL(image).origin, `${path}: the social image is on the site`).toBe(origin);
    // Whatever the build's SITE_URL, the image must exist on this server.
    const png = await page.request.get(new URL(image).pathname);
    expect.soft(png.status(), image).toBe(200);
    expect.soft(png.headers()["content-type"]).toBe("image/png");
  }
  for (const block of await jsonLd(page)) {
    expect
      .soft(block["@context"], `${path}: JSON-LD @context`)
      .toMatch(/^https:\/\/schema\.org\/?$/);
  }
}

/** A content page's own title and description (app/content/pages.ts). */
async function checkPageInfo(page: Page, path: PagePath) {
  const info = pages[path];
  await expect.soft(page, `${path}: title`).toHaveTitle(info.title);
  await expect
    .soft(page.locator('meta[name="description"]'), `${path}: description`)
    .toHaveAttribute("content", info.description);
  await expect
    .soft(page.locator('meta[property="og:title"]'), `${path}: og:title`)
    .toHaveAttribute("content", info.title);
}

/**
 * Every figure of spec section 9, and the figures section 2 gives the content pages, except
 * those `contents` finds in their own place (a card, a region, the policies' date line).
 */
const figures: Record<string, string[]> = {
  "/contact": ["Weekends closed"],
  "/services": ["6-8 weeks", "up to 12 months", "45-minute", "6 weeks, then 3, 6 and 12 months"],
  "/our-approach": [
    "6 weeks",
    "3 months",
    "6 months",
    "12 months",
    "below 12 nmol/L",
    "under 8 nmol/L",
    "before 10am",
    "at least four weeks apart",
  ],
  // Clinical eligibility (section 5) and the consultation requirements (section 2).
  "/consultation": ["45-minute video call", "8 nmol/L", "48 hours"],
  "/trt-overview": ["at least four weeks apart", "18 or over"],
  "/privacy-policy": ["At least 8 years", "3 years", "12-24 months", "within one month"],
  "/cookie-policy": [CONSENT_STORAGE_KEY, "1 year", "For the session", "2 years", "24 hours"],
  "/terms-of-service": [
    "over 18 and UK resident",
    "45-60 minutes",
    "at least 48 hours before your appointment",
    "At least two pre-treatment blood tests",
    "6-month minimum term",
    "rolling monthly",
    "30 days' cancellation notice",
    "discount",
    "refund half the annual fee",
    "before 11am",
    "no exercise for 48 hours",
    "2-4 hours after application",
    "2 hours after application",
    "two tests (x2)",
    "1 month to 6 weeks",
    "at 4 months",
    "at 7 months",
    "twice a year",
    "over one month",
    "one month's notice",
  ],
  "/shipping-policy": [
    "Standard",
    "Free",
    "Up to 7 working days",
    "Priority",
    "£1.99",
    "2-4 working days",
    "Tracked",
    "£5.99",
    "1-2 working days",
    "between 8am and 9pm, excluding bank holidays",
    "fit through a letterbox",
  ],
  "/refund-policy": [
    "within 14 days of the order date",
    "full refund",
    "£6 including VAT",
    "the kit is activated",
    "the sample has been sent",
    "the 14 days have passed",
    "within 10 working days to the original payment method",
    "gift card",
    "Extra postage you chose is non-refundable once the kit has been despatched",
    "free retest",
    "venous sample",
    "after two failures",
  ],
  // Built in app/routes/tools/pricing.tsx.
  "/pricing": [
    "£149",
    "45-minute",
    "£29",
    "£79",
    "£35",
    "£32",
    "£28",
    "£10",
    "£60",
    "£6.50",
    "£30",
    "£52",
    "£39",
    "£43",
    "£1,485",
    "£1,140",
    "6-8 weeks",
    "up to 12 months",
  ],
};

/** Soft checks that what `target` finds is visible, or is a link to `href`. */
const visible = (target: Locator) => expect.soft(target).toBeVisible();
const linksTo = (link: Locator, href: string) => expect.soft(link).toHaveAttribute("href", href);

/** A link inside `scope` by its name, visible and pointing at `href`. */
async function expectLink(scope: Locator, name: string | RegExp, href: string) {
  const link = scope.getByRole("link", { name, exact: typeof name === "string" }).first();
  await visible(link);
  await linksTo(link, href);
}

/** Soft checks that each heading named is visible in `scope`. */
async function expectHeadings(scope: Locator, names: string[], exact = false) {
  for (const name of names) await visible(scope.getByRole("heading", { name, exact }));
}

/** The structured-data nodes of a page, flattening @graph containers. */
async function jsonLdNodes(page: Page): Promise<Record<string, unknown>[]> {
  return (await jsonLd(page)).flatMap((b) =>
    Array.isArray(b["@graph"]) ? (b["@graph"] as Record<string, unknown>[]) : [b],
  );
}

function hasType(node: Record<string, unknown>, type: string): boolean {
  const t = node["@type"];
  return Array.isArray(t) ? t.includes(type) : t === type;
}

/** The MedicalClinic node of the page's structured data, with what every copy carries. */
async function expectClinic(page: Page, fields: Record<string, unknown>) {
  const clinic = (await jsonLdNodes(page)).find((n) => hasType(n, "MedicalClinic"));
  expect.soft(clinic, "MedicalClinic JSON-LD").toMatchObject({
    name: "Meridian Men's Health",
    url: expect.stringMatching(/^https?:\/\//),
    address: expect.anything(),
    ...fields,
  });
}

async function expectReviewed(main: Locator) {
  const line = main.page().getByText(/^Medically reviewed by .+, .+, on \d{1,2} \w+ \d{4}$/);
  await expect.soft(line).toBeVisible();
  await expect.soft(line.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}$/);
}

async function expectPolicy(main: Locator) {
  await expect.soft(main.getByText("January 2025").first()).toBeVisible();
  await expect.soft(main.getByText("1.0", { exact: true })).toBeVisible();
}

async function expectNoindex(page: Page, robots: string | RegExp = "noindex") {
  await expect.soft(page.locator('head meta[name="robots"]')).toHaveAttribute("content", robots);
  await expect.soft(page.locator('head link[rel="canonical"]')).toHaveCount(0);
}

/**
 * What each page shows as it loads, beyond its heading and figures: key texts, links and
 * structured data (interactive states: content-pages.spec.ts).
 */
const contents: Record<string, (main: Locator, page: Page) => Promise<void>> = {
  "/": async (main, page) => {
    const hero = page.getByRole("region", { name: "Expert TRT for the Modern Man" });
    await visible(hero.getByText(/holistic testosterone therapy/i));
    await visible(hero.getByText("Services Available Upon CQC Approval."));
    await expectLink(hero, "Register Your Interest", "/register-interest");
    await expectLink(hero, "Learn About Our Services", "/services");
    const quiz = page.getByRole("complementary", { name: "Not sure if you have symptoms?" });
    await expectLink(quiz, /Take the ADAM Quiz/, "/quiz");
    const trust = page.getByRole("region", { name: "More Than Just a TRT Clinic" });
    await expectHeadings(trust, ["GMC Registered", "MHRA Compliant", "Specialist Experience"]);
    await visible(trust.getByText("4.8/5"));
    await expectLink(trust, "Learn About Our Team", "/team");
    const closing = page.getByRole("region", { name: "Join Our Waiting List" });
    await expectLink(closing, "Register Your Interest", "/register-interest");
    await expectLink(closing, "Explore Our Services", "/services");
    // The home page names no prescription-only medicine and quotes no price.
    expect
      .soft((await main.textContent()) ?? "")
      .not.toMatch(
        /cypionate|enanthate|undecanoate|propionate|sustanon|nebido|testogel|tostran|testavan|restandol|hcg|anastrozole|tadalafil|£/i,
      );
    await expectClinic(page, { telephone: expect.any(String) });
    // The footer links every page the spec names, and no social link to a made-up address.
    const footer = page.locator("footer");
    for (const [name, href] of [
      ["TRT Treatment Plans", "/treatment-options"],
      ["Meet the Team", "/team"],
      ["Privacy Policy", "/privacy-policy"],
      ["Terms of Service", "/terms-of-service"],
      ["Cookie Policy", "/cookie-policy"],
      ["Shipping Policy", "/shipping-policy"],
      ["Refund Policy", "/refund-policy"],
      ["Ongoing Monitoring", "/our-approach#ongoing-care"],
      ["Accessibility", "/accessibility"],
    ] as const) {
      await linksTo(footer.getByRole("link", { name, exact: true }), href);
    }
    await visible(footer.getByText("Instagram"));
    await expect.soft(footer.getByRole("link", { name: "Instagram" })).toHaveCount(0);
    await expect.soft(footer).toContainText("company number");
    await expect.soft(footer).toContainText("Care Quality Commission");
    // From the lg breakpoint the phone menu's toggle is hidden.
    await expect.soft(phoneMenuToggle(page)).toBeHidden();
  },
  "/our-approach": async (main, page) => {
    const process = page.getByRole("region", { name: "Our three-step process" });
    const steps = ["Initial Assessment", "Treatment Initiation", "Ongoing Care"];
    await expectHeadings(process, steps, true);
    await visible(process.getByRole("img", { name: "Our three-step process" }));
    const headings = ["Our principles", "Clinical foundation", "What you can expect"];
    await expectHeadings(main, headings);
    await visible(page.getByRole("complementary", { name: "Medical information notice" }));
  },
  "/team": async (main) => {
    const cards = main.getByRole("article");
    await expect.soft(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      await expect.soft(card.getByRole("heading", { level: 3 })).toHaveText(/^Dr /);
      await visible(card.getByText(/^[A-Z]{2}$/));
      await expect.soft(card.getByText(/Qualifications:/)).toBeAttached();
      await expect.soft(card.locator("p")).not.toHaveCount(0);
      // A seven-digit GMC number, linked to the register.
      const text = await card.innerText();
      const gmc = /GMC number (\d{7})\b/.exec(text)?.[1];
      expect.soft(gmc, text).toBeTruthy();
      const register = card.getByRole("link", { name: /GMC register/ });
      await linksTo(register, `https://www.gmc-uk.org/doctors/${gmc}`);
    }
    await expectLink(main, "Register Your Interest", "/register-interest");
  },
  "/trt-overview": async (main, page) => {
    await expectHeadings(main, ["Possible benefits", "Who may be a candidate?"]);
    const daily = page.getByRole("region", { name: "Where it shows in daily life" });
    for (const level of ["Very High", "High", "Medium"]) {
      await visible(daily.getByText(`Impact: ${level}`, { exact: true }).first());
    }
    await visible(main.getByText(/below 12 nmol\/L/));
    await expectLink(main, "What you need for a consultation", "/consultation");
    // The spec's /how-it-works does not exist: the link goes to the three-step process.
    await expectLink(main, "How it works", "/our-approach");
    await expect.soft(page.locator('a[href="/how-it-works"]')).toHaveCount(0);
    await expectLink(main, "Register Your Interest", "/register-interest");
    await expectReviewed(main);
  },
  "/faq": async (main, page) => {
    await expectLink(main, "Contact Our Team", "/contact");
    // Every question a visitor sees is marked up, in order, with its answer.
    const faq = (await jsonLdNodes(page)).find((n) => hasType(n, "FAQPage"));
    const entities = (faq?.["mainEntity"] ?? []) as Record<string, unknown>[];
    const questions = await main.locator("details summary").allTextContents();
    expect.soft(questions.length, "questions on /faq").toBeGreaterThan(0);
    expect.soft(entities.map((e) => e["name"])).toEqual(questions);
    for (const q of entities) {
      expect.soft(hasType(q, "Question")).toBe(true);
      const answer = q["acceptedAnswer"] as Record<string, unknown> | undefined;
      const about = `answer to "${String(q["name"])}"`;
      expect.soft(answer && hasType(answer, "Answer"), about).toBe(true);
      expect.soft(answer?.["text"]).toEqual(expect.stringMatching(/\S/));
    }
    await expectReviewed(main);
  },
  "/services": async (main) => {
    for (const name of [
      "Specialist Consultations",
      "Blood Testing",
      "Personalised Treatment Plans",
      "Ongoing Care and Monitoring",
    ]) {
      await visible(main.getByRole("article", { name }));
    }
    await visible(main.getByRole("note").filter({ hasText: "await approval" }));
    await expectLink(main, "Register Your Interest", "/register-interest");
  },
  "/treatment-options": async (main) => {
    for (const [name, badge, cost] of [
      ["Injectable TRT", "Excellent", "£15-65"],
      ["Topical Applications", "Good", "£50-75"],
      ["Oral Testosterone", "Moderate", "£90-200"],
    ] as const) {
      const card = main.getByRole("article", { name });
      // The badge reads "Effectiveness: Excellent" to screen readers and "Excellent" on screen.
      await visible(card.getByText(`Effectiveness: ${badge}`, { exact: true }));
      for (const text of ["Schedule", "Monthly cost", cost]) await visible(card.getByText(text));
    }
    await expectLink(main, "Learn About Consultations", "/consultation");
    await expectLink(main, "Register Your Interest", "/register-interest");
    await expectReviewed(main);
  },
  "/consultation": async (main, page) => {
    const requirements = page.getByRole("region", { name: "What you will need" });
    await expect.soft(requirements.getByRole("listitem")).toHaveCount(4);
    for (const text of [
      "Two results at least four weeks apart, both below 12 nmol/L.",
      "Taken before 10am",
      "Total testosterone, free testosterone, LH, FSH and SHBG.",
      "medications and supplements",
      "health conditions",
    ]) {
      await expect.soft(requirements).toContainText(text);
    }
    await expectHeadings(main, ["Bookings Not Yet Available"]);
    await expectLink(main, "Register Your Interest", "/register-interest");
    await expectReviewed(main);
  },
  "/contact": async (main, page) => {
    await visible(main.getByText("1 Example Street"));
    await linksTo(main.getByRole("link", { name: "020 0000 0000" }), "tel:+442000000000");
    const email = "hello@example.co.uk";
    await linksTo(main.getByRole("link", { name: email }), `mailto:${email}`);
    const hours = page.getByRole("region", { name: "Opening hours" });
    for (const text of ["Monday-Friday", "9:00 AM - 6:00 PM", "Closed"]) {
      await expect.soft(hours).toContainText(text);
    }
    const urgent = main.getByRole("note", { name: "Need urgent medical help?" });
    await expect.soft(urgent).toContainText("NHS 111");
    await expect.soft(urgent).toContainText("GP");
    await expect.soft(main.locator("form")).toHaveCount(0);
    await expectLink(main, "Register Your Interest", "/register-interest");
    await expectClinic(page, { email });
  },
  "/privacy-policy": async (main, page) => {
    await expectPolicy(main);
    const section = page.getByRole("region", { name: "The data we collect" });
    for (const category of ["Personal details", "Medical information", "Digital information"]) {
      await visible(section.getByText(new RegExp(`^${category}:`)));
    }
  },
  "/cookie-policy": expectPolicy,
  "/terms-of-service": async (main) => {
    await expectPolicy(main);
    await visible(main.getByText(/Effective:/));
    const note = "apply once our services launch after regulatory approval";
    await expect.soft(main.getByRole("note")).toContainText(note);
  },
  "/shipping-policy": expectPolicy,
  "/refund-policy": expectPolicy,
  "/accessibility": async (main) => {
    await expect.soft(main).toContainText("WCAG");
  },
  "/pricing": async (_, page) => {
    const region = page.getByRole("complementary", { name: "Your estimate" });
    await expect.soft(region).toContainText("Medication and membership only");
    await expect.soft(region).toContainText("With consultation and tests");
    // Cypionate at £15: the worked example's £1,485 with ten months at £15 instead of £45.
    await visible(region.getByRole("definition").filter({ hasText: "£1,185" }));
    await linksTo(region.getByRole("link", { name: "See the cost breakdown" }), "#breakdown");
  },
  "/register-interest": async (_, page) => {
    await expect.soft(page.getByLabel("Full name")).toHaveAttribute("required", "");
    await expect.soft(page.getByLabel("Email address")).toHaveAttribute("type", "email");
    await expect.soft(page.getByLabel("Email address")).toHaveAttribute("required", "");
    await expect.soft(page.getByLabel("Phone number")).toHaveAttribute("type", "tel");
    await expect.soft(page.getByLabel("Phone number")).not.toHaveAttribute("required");
    await linksTo(page.getByRole("link", { name: "Read our privacy policy" }), "/privacy-policy");
    // The honeypot is out of the accessibility tree and the tab order.
    await expect.soft(page.getByRole("textbox")).toHaveCount(4);
    await expect.soft(page.locator('input[name="website"]')).toHaveAttribute("tabindex", "-1");
    // The idempotency key is made in the browser after hydration.
    await expect.soft(page.locator('input[name="idempotencyKey"]')).toHaveValue(/^[0-9a-f-]{36}$/);
  },
  [registrationPaths.thankYou]: async (_, page) => expectNoindex(page),
  [notFoundPath]: async (main, page) => {
    await visible(page.getByText("404", { exact: true }));
    const heading = main.getByRole("heading", { level: 1 });
    await expect.soft(heading).toContainText("Oops! Page not found");
    await linksTo(page.getByRole("link", { name: "Return to Home" }), "/");
    await expectNoindex(page, /noindex/);
  },
};

for (const [size, viewport] of Object.entries(viewports)) {
  test.describe(`at ${viewport.width}px`, () => {
    // Focus rings are measured at rest: no colour transitions half-way.
    test.use({ viewport, reducedMotion: "reduce" });
    // A full Tab journey through the page.
    test.setTimeout(240_000);

    for (const path of allPages) {
      test(`${path} (${size})`, async ({ page }) => {
        const csp = await watchCsp(page);
        const logged: string[] = [];
        page.on("console", (m) => {
          if (m.type() === "error") logged.push(m.text());
        });
        const weights = weigh(page);
        const requested: string[] = [];
        page.on("request", (request) => requested.push(request.url()));
        const response = await openPage(page, path);
        const at = `${path} at ${viewport.width}px`;
        await expect
          .soft(page.locator("#consent-banner"), `${at}: the consent banner`)
          .toBeVisible();

        const weight = await weights();
        const jsBudget = hydratedPaths.includes(path) ? budgets.js.hydrated : budgets.js.content;
        const kb = (bytes: number) => bytes / 1024;
        console.log(
          `weight ${at}: JS ${kb(weight.js).toFixed(1)} KB, CSS ${kb(weight.css).toFixed(1)} KB, ` +
            `HTML ${kb(weight.html).toFixed(1)} KB, ${weight.files} files`,
        );
        expect.soft(weight.html, `${at} loads its HTML`).toBeGreaterThan(0);
        expect.soft(weight.js, `${at} loads JavaScript`).toBeGreaterThan(0);
        expect.soft(kb(weight.js), `${at}: JavaScript KB gzipped`).toBeLessThanOrEqual(jsBudget);
        expect.soft(kb(weight.css), `${at}: CSS KB gzipped`).toBeLessThanOrEqual(budgets.css);
        expect.soft(kb(weight.html), `${at}: HTML KB gzipped`).toBeLessThanOrEqual(budgets.html);

        expect.soft(await axeViolations(page), `axe violations on ${at}`).toEqual([]);
        expect.soft(await classConflicts(page), `class conflicts on ${at}`).toEqual([]);

        expect.soft(await csp.violations(), `CSP violations on ${at}`).toEqual([]);
        expect.soft(csp.consoleProblems, `CSP complaints on ${at}`).toEqual([]);
        if (path !== notFoundPath) {
          expect
            .soft(response?.headers()["content-security-policy"], `${path}: script hashes`)
            .toMatch(/'sha256-/);
        }

        expect.soft(await untypedButtons(page), `buttons without a type on ${at}`).toEqual([]);

        const banner = page.getByRole("region", { name: "Regulatory status" });
        await expect.soft(banner).toHaveText("Services Available Upon CQC Approval");
        expect
          .soft(await banner.boundingBox(), `${at}: the banner`)
          .toMatchObject({ y: 0, height: 40 });
        expect
          .soft(await page.locator("header").first().boundingBox(), `${at}: the header`)
          .toMatchObject({ y: 40, height: 64 });
        const heading =
          staticRoutes.find((r) => r.path === path)?.heading ?? pages[path as PagePath]?.heading;
        const h1 = page.getByRole("main").getByRole("heading", { level: 1 });
        if (heading) await expect.soft(h1, `${path}: its heading`).toHaveText(heading);

        if (size === "desktop") {
          if (sitemapPaths.includes(path)) await checkHead(page, path);
          if (path in pages) await checkPageInfo(page, path as PagePath);
          for (const figure of figures[path] ?? []) {
            await expect
              .soft(page.getByRole("main"), `${path} shows "${figure}"`)
              .toContainText(figure);
          }
          await contents[path]?.(page.getByRole("main"), page);
          // The 404 page logs the path that was asked for.
          if (path === notFoundPath) await expect.poll(() => logged.join("\n")).toContain(path);
        }

        expect.soft(await focusProblems(page, at), `focus stops on ${at}`).toEqual([]);
        // At the end of the page, what loads lazily has been asked for too.
        await page.evaluate(async () => {
          window.scrollTo(0, document.body.scrollHeight);
          await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
        });
        const origin = new URL(page.url()).origin;
        const foreign = requested.filter(
          (url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin,
        );
        expect.soft(foreign, `third-party requests from ${at}`).toEqual([]);
        if (size === "mobile") {
          await page.setViewportSize({ width: 320, height: 640 });
          expect.soft(await horizontalOverflow(page), `${path} at 320px`).toBe("");
        }
      });
    }
  });
}
