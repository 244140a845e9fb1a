import { randomUUID } from "node:crypto";

import { expect, test } from "@playwright/test";

import { consoleJourneys } from "./console-journeys.ts";
import { type Engine, hidden, visible, waitFor } from "./engine.ts";
import { type Query, isChecked, shellReady, reactOwns } from "./selectors.ts";
import { CONSENT_STORAGE_KEY } from "../../app/features/consent/consent-record.ts";
import { prerenderedPaths } from "../../app/prerendered-paths.ts";

/**
 * The core journeys, written once against the Engine interface and run in Firefox ESR and
 * WebKitGTK (tests/engines/*.spec.ts) at a phone and a desktop width. Each click is made
 * once: a step waits for a condition, never retries an action.
 */

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof viewports;

const notFoundPath = "/this-page-does-not-exist";
/** A page answered in full, or from the browser's cache after revalidation. */
const found = [200, 304];
const banner = "Cookies on this site";
const noOptional = { analytics: false, functional: false, marketing: false };

/** A visible element that the page's scripts have taken charge of. */
async function ready(engine: Engine, query: Query, owned = shellReady) {
  const element = await visible(engine, query);
  await waitFor(() => engine.on(element, owned), `${JSON.stringify(query)} to be interactive`);
  return element;
}

function expectFound(path: string, status: number) {
  expect(found, `${path} answered ${status}`).toContain(status);
}

/**
 * Opens a page with a cookie choice already made, so the banner stays away, or on empty
 * storage (a first visit); checks it answered.
 */
async function visit(engine: Engine, path: string, { firstVisit = false } = {}) {
  const choice = { version: 1, essential: true, ...noOptional, decidedAt: new Date() };
  await engine.open("/robots.txt");
  await engine.run(
    (key: string, value: string | null) => {
      if (value !== null) localStorage.setItem(key, value);
      else {
        localStorage.clear();
        sessionStorage.clear();
      }
    },
    CONSENT_STORAGE_KEY,
    firstVisit ? null : JSON.stringify(choice),
  );
  expectFound(path, (await engine.open(path)).status);
}

/** The stored cookie choice, or null. */
function storedConsent(engine: Engine) {
  return engine.run(
    (key: string) =>
      JSON.parse(localStorage.getItem(key) ?? "null") as Record<string, unknown> | null,
    CONSENT_STORAGE_KEY,
  );
}

const isOpen = (el: Element) => (el.parentElement as HTMLDetailsElement).open;
const faqLink: Query = { role: "link", name: "FAQ", href: "/faq", within: "Main" };

/** A menu's FAQ link took the visitor to the FAQ page. */
async function atFaq(engine: Engine) {
  await waitFor(
    async () => (await engine.run(() => location.pathname)) === "/faq",
    "the address to become /faq",
  );
  await visible(engine, { role: "heading", name: "Frequently Asked Questions" });
}

async function chooseConsent(engine: Engine, button: string, expected: Record<string, boolean>) {
  await visit(engine, "/", { firstVisit: true });
  const choice = await ready(engine, { role: "button", name: button, within: banner });
  await engine.click(choice);
  await hidden(engine, { role: "button", name: button });
  await waitFor(async () => (await storedConsent(engine)) !== null, "the choice to be stored");
  expect(await storedConsent(engine)).toMatchObject({ version: 1, essential: true, ...expected });
  // The next page remembers it.
  await engine.open("/faq");
  await visible(engine, { role: "heading", name: "Frequently Asked Questions" });
  expect(await engine.find({ role: "button", name: button })).toBeNull();
}

/** Two accordion items of one group: opening the second closes the first; it closes again. */
async function accordion(engine: Engine, path: string, first: string, second: string) {
  await visit(engine, path);
  const a = await ready(engine, { role: "summary", name: first, prefix: true }, () => true);
  const b = await visible(engine, { role: "summary", name: second, prefix: true });
  await engine.click(a);
  await waitFor(() => engine.on(a, isOpen), `"${first}" to open`);
  await engine.click(b);
  await waitFor(() => engine.on(b, isOpen), `"${second}" to open`);
  await waitFor(async () => !(await engine.on(a, isOpen)), `"${first}" to close`);
  await engine.click(b);
  await waitFor(async () => !(await engine.on(b, isOpen)), `"${second}" to close again`);
}

/** The calculator's live estimate (its status region), as "Monthly total £47 Yearly total £564". */
function estimate(engine: Engine) {
  return engine.run(() => {
    const region = [...document.querySelectorAll("[role=status]")].find((el) =>
      el.textContent?.includes("Monthly total"),
    ) as HTMLElement | undefined;
    const text = region?.innerText ?? "";
    const figure = (label: string) => new RegExp(`${label}[^£]*(£[\\d,]+)`).exec(text)?.[1] ?? "?";
    return `Monthly total ${figure("Monthly total")} Yearly total ${figure("Yearly total")}`;
  });
}

export type Journey = {
  name: string;
  only?: ViewportName;
  /** Only in these engines (where a driver lacks what the journey needs). */
  engines?: Engine["name"][];
  run(engine: Engine, viewport: ViewportName): Promise<void>;
};

export const journeys: Journey[] = [
  {
    name: "every page loads with its status and without errors",
    async run(engine) {
      const problems: Record<string, string[]> = {};
      for (const path of [...prerenderedPaths, notFoundPath]) {
        const { status } = await engine.open(path);
        if (path === notFoundPath) expect(status, path).toBe(404);
        else expectFound(path, status);
        await visible(engine, { role: "heading" });
        // Wait for scripts to settle: every module and style loaded, nothing pending.
        await waitFor(
          () => engine.run(() => document.readyState === "complete"),
          `${path} to finish loading`,
        );
        // The 404 page logs the address that was asked for (spec: "path logged to console").
        const seen = (await engine.problems()).filter(
          (p) => !(path === notFoundPath && p.includes("non-existent route")),
        );
        if (seen.length > 0) problems[path] = seen;
      }
      expect(problems).toEqual({});
    },
  },
  ...(
    [
      ["Accept All", "every category", { analytics: true, functional: true, marketing: true }],
      ["Essential Only", "no optional category", noOptional],
    ] as const
  ).map(([button, stored, expected]) => ({
    name: `consent: ${button} stores ${stored} and the banner goes`,
    run: (engine: Engine) => chooseConsent(engine, button, expected),
  })),
  {
    name: "consent: the preferences dialog saves the chosen categories",
    async run(engine) {
      const dialog = "Cookie preferences";
      await visit(engine, "/", { firstVisit: true });
      await engine.click(
        await ready(engine, { role: "button", name: "Manage preferences", within: banner }),
      );
      await visible(engine, { role: "dialog", name: dialog });
      const analytics = await visible(engine, {
        role: "choice",
        name: "Analytics",
        within: dialog,
      });
      expect(await engine.on(analytics, isChecked)).toBe(false);
      await engine.click(analytics);
      await waitFor(() => engine.on(analytics, isChecked), "Analytics to be switched on");
      await engine.click(await visible(engine, { role: "button", name: "Save preferences" }));
      await hidden(engine, { role: "dialog", name: dialog });
      await hidden(engine, { role: "button", name: "Accept All" });
      expect(await storedConsent(engine)).toMatchObject({ ...noOptional, analytics: true });
    },
  },
  {
    name: "phone menu: opens, a section opens, a link navigates and the menu closes",
    only: "phone",
    async run(engine) {
      await visit(engine, "/");
      await engine.click(await ready(engine, { role: "summary", name: "Open menu" }));
      await engine.click(await visible(engine, { role: "summary", name: "TRT", within: "Main" }));
      await engine.click(await visible(engine, faqLink));
      await atFaq(engine);
      await visible(engine, { role: "summary", name: "Open menu" });
      expect(await engine.find(faqLink)).toBeNull();
    },
  },
  {
    name: "desktop menu: a submenu opens and its link navigates",
    only: "desktop",
    async run(engine) {
      await visit(engine, "/");
      // A native <details> (docs/decisions/105): its summary is the toggle.
      const trt = await ready(engine, { role: "summary", name: "TRT", within: "Main" });
      expect(await engine.on(trt, isOpen)).toBe(false);
      await engine.click(trt);
      await waitFor(() => engine.on(trt, isOpen), "the TRT submenu to open");
      await engine.click(await visible(engine, faqLink));
      await atFaq(engine);
    },
  },
  {
    name: "FAQ accordion: one answer open at a time, and an open one closes",
    run: (engine) => accordion(engine, "/faq", "When can I start?", "What is the first step?"),
  },
  {
    name: "treatment accordion: one option open at a time, and an open one closes",
    run: (engine) =>
      accordion(engine, "/treatment-options", "Injectable TRT", "Topical Applications"),
  },
  {
    name: "quiz: ten answers lead to the result",
    async run(engine) {
      await visit(engine, "/quiz");
      // Always 4, Often 3, Sometimes 2, Rarely 1, Never 0: 4+4+3+2+1+0+4+3+2+1 = 24.
      const answers = "Always Always Often Sometimes Rarely Never Always Often Sometimes Rarely";
      for (const [i, answer] of answers.split(" ").entries()) {
        await visible(engine, { role: "text", name: `Question ${i + 1} of 10` });
        const choice = await ready(engine, { role: "choice", name: answer }, (label) =>
          Object.keys((label as HTMLLabelElement).control ?? {}).some((k) =>
            k.startsWith("__reactProps"),
          ),
        );
        await engine.click(choice);
        await waitFor(() => engine.on(choice, isChecked), `"${answer}" to be chosen`);
        const next = await visible(engine, {
          role: "button",
          name: i === 9 ? "View Results" : "Next",
        });
        await waitFor(
          () => engine.on(next, (el) => !(el as HTMLButtonElement).disabled),
          "Next to be enabled",
        );
        await engine.click(next);
      }
      await visible(engine, { role: "heading", name: "Higher Risk" });
      await visible(engine, { role: "text", name: "You scored 24 out of 40." });
    },
  },
  {
    name: "calculator: totals follow spec section 9",
    async run(engine) {
      await visit(engine, "/pricing");
      // The live estimate is on once the calculator offers to copy its link.
      await ready(engine, { role: "button", name: "Copy link to this estimate" }, reactOwns);
      // Spec section 9: monthly = treatment + add-ons + 32; yearly = treatment yearly + add-ons x 12 + 384.
      const cases = [
        {
          treatment: "Nebido",
          yearly: 540,
          monthly: 45,
          addOns: { "hCG, higher dose": 45, Tadalafil: 15 },
        },
        { treatment: "Sustanon", yearly: 300, monthly: 25, addOns: { "Aromatase inhibitor": 20 } },
      ];
      const ticked = new Set<string>();
      for (const c of cases) {
        await engine.click(
          await visible(engine, { role: "choice", name: c.treatment, prefix: true }),
        );
        for (const name of new Set([...ticked, ...Object.keys(c.addOns)])) {
          // Untick what the last case ticked and this one does not want, tick the rest.
          if (ticked.has(name) === Object.hasOwn(c.addOns, name)) continue;
          await engine.click(await visible(engine, { role: "choice", name, prefix: true }));
          if (ticked.has(name)) ticked.delete(name);
          else ticked.add(name);
        }
        const addOns = Object.values(c.addOns).reduce((a, b) => a + b, 0);
        const monthly = c.monthly + addOns + 32;
        const yearly = c.yearly + addOns * 12 + 384;
        const pounds = (n: number) => `£${n.toLocaleString("en-GB")}`;
        const expected = `Monthly total ${pounds(monthly)} Yearly total ${pounds(yearly)}`;
        await waitFor(
          async () => (await estimate(engine)) === expected,
          `the estimate to read "${expected}" (it reads "${await estimate(engine)}")`,
        );
      }
    },
  },
  {
    name: "registration: an empty form shows its error and sends nothing; a full one thanks",
    async run(engine) {
      await visit(engine, "/register-interest");
      const submit = await visible(engine, { role: "button", name: "Register Interest" });
      // The form has taken over validation from the browser once it is hydrated.
      await waitFor(
        () => engine.on(submit, (el) => (el as HTMLButtonElement).form?.noValidate === true),
        "the form to be interactive",
      );
      await engine.run(() => {
        const w = window as unknown as { __sent: string[]; __marker: boolean };
        w.__sent = [];
        w.__marker = true;
        const original = window.fetch.bind(window);
        window.fetch = (input, init) => {
          w.__sent.push(String(input instanceof Request ? input.url : input));
          return original(input, init);
        };
      });
      await engine.click(submit);
      await visible(engine, { role: "text", name: "Please fill in all required fields" });
      expect(
        await engine.run(() => {
          const w = window as unknown as { __sent: string[]; __marker?: boolean };
          return { sent: w.__sent, samePage: w.__marker === true, path: location.pathname };
        }),
      ).toEqual({ sent: [], samePage: true, path: "/register-interest" });

      for (const [name, text] of [
        ["Full name", "Sam Engine"],
        ["Email address", `engine-${randomUUID()}@example.co.uk`],
      ] as const)
        await engine.type(await visible(engine, { role: "textbox", name }), text);
      await engine.click(submit);
      await visible(engine, { role: "heading", name: "Thank you for registering" }, 30_000);
    },
  },
  {
    name: "keyboard: every focus stop is visible and the cookie banner is reachable",
    async run(engine) {
      await visit(engine, "/contact", { firstVisit: true });
      await ready(engine, { role: "button", name: "Accept All", within: banner });
      const stops: { name: string; why: string; shown: boolean; inBanner: boolean }[] = [];
      const measure = () =>
        engine.run((bannerName: string) => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          const r = el.getBoundingClientRect();
          const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
          const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
          const hit = document.elementFromPoint(x, y);
          const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
          const region = [...document.querySelectorAll("section[aria-labelledby]")].find(
            (s) =>
              document.getElementById(s.getAttribute("aria-labelledby") ?? "")?.textContent ===
              bannerName,
          );
          const describe = (e: Element | null) =>
            e
              ? `${e.tagName.toLowerCase()} "${(e.textContent ?? "").trim().slice(0, 40)}"`
              : "nothing";
          const shown =
            inView &&
            r.width > 0 &&
            r.height > 0 &&
            hit !== null &&
            (el === hit || el.contains(hit) || hit.contains(el));
          return {
            name: `${describe(el)} ${el.getAttribute("href") ?? ""}`,
            why: shown
              ? ""
              : `at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}, under ${describe(hit)}`,
            shown,
            inBanner: region?.contains(el) ?? false,
          };
        }, banner);
      for (let i = 0; i < 150; i += 1) {
        await engine.pressTab();
        let stop = await measure();
        // Under load WebKit can answer before it has scrolled the newly focused control into view.
        for (let wait = 0; stop && !stop.shown && wait < 5; wait += 1) {
          await new Promise((done) => setTimeout(done, 200));
          stop = await measure();
        }
        if (stop === null) break;
        if (stops.length > 0 && stops[0]?.name === stop.name) break;
        stops.push(stop);
      }
      expect(stops.length).toBeGreaterThan(10);
      expect(stops.filter((s) => !s.shown).map((s) => `${s.name}: ${s.why}`)).toEqual([]);
      expect(stops.some((s) => s.inBanner)).toBe(true);
    },
  },
];

/** Declares the journeys for one engine: a browser per viewport, every journey in it. */
export function describeEngine(
  name: Engine["name"],
  launch: (size: { width: number; height: number }) => Promise<Engine>,
) {
  for (const viewport of ["phone", "desktop"] as const) {
    test.describe(`${name} at ${viewports[viewport].width} px`, () => {
      // In order, in one worker, on one browser; a failure does not skip the rest.
      test.describe.configure({ mode: "default" });
      let engine: Engine;
      test.beforeAll(async () => {
        test.setTimeout(120_000);
        engine = await launch(viewports[viewport]);
      });
      test.afterAll(async () => {
        await engine?.close();
      });
      for (const journey of [...journeys, ...consoleJourneys]) {
        if (journey.only && journey.only !== viewport) continue;
        if (journey.engines && !journey.engines.includes(name)) continue;
        test(journey.name, async () => {
          test.setTimeout(180_000);
          await journey.run(engine, viewport);
        });
      }
    });
  }
}
