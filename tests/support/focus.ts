/**
 * Keyboard focus on a first visit, with the consent banner up (WCAG 2.2 SC 2.4.11 and 1.4.11):
 * Tab through a page; no focus stop may sit entirely hidden (behind the consent banner, the
 * fixed header or status banner, or off-screen once scrolled into view), and every focus ring
 * keeps 3:1 against the ground it is drawn on. Run on every page by every-page.spec.ts;
 * focus.spec.ts shows the measure can fail.
 */
import { type Page, expect } from "@playwright/test";

type Stop = {
  what: string;
  /** Why the stop is entirely hidden, or null when some of it is visible. */
  hidden: string | null;
  /** The ring colour's lowest contrast against the grounds around it, or null with no ring. */
  ringContrast: number | null;
  ringDetail: string;
};

declare global {
  interface Window {
    __inspectFocus?: () => Promise<Stop | null>;
  }
}

/**
 * Installed once per page: measures the focused element. Written as one function (no
 * imports) because it runs in the browser.
 */
export function installInspector() {
  type RGBA = [number, number, number, number];
  const parse = (css: string): RGBA => {
    const m = /rgba?\(([^)]+)\)/.exec(css);
    if (!m?.[1]) return [0, 0, 0, 0];
    const parts = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: RGBA) => {
    const lin = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a: RGBA, b: RGBA) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
    return (x + 0.05) / (y + 0.05);
  };
  // Composites a stack of colours, topmost first, over the page's paper.
  const flatten = (stack: RGBA[]): RGBA => {
    let [r, g, b] = parse(getComputedStyle(document.documentElement).backgroundColor);
    for (const [cr, cg, cb, ca] of [...stack].reverse()) {
      r = cr * ca + r * (1 - ca);
      g = cg * ca + g * (1 - ca);
      b = cb * ca + b * (1 - ca);
    }
    return [r, g, b, 1];
  };
  /** Fixed or sticky: what floats over the page. */
  const floats = (e: Element) => ["fixed", "sticky"].includes(getComputedStyle(e).position);
  /** The z-index of the nearest floating element at or above `el`. */
  const layer = (el: Element | null) => {
    for (let e = el; e; e = e.parentElement) {
      if (!floats(e)) continue;
      const z = parseInt(getComputedStyle(e).zIndex, 10);
      return Number.isNaN(z) ? 0 : z;
    }
    return -Infinity;
  };
  const describe = (el: Element) => {
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${name}"`;
  };

  // What can float over the page: looked up once, as a full scan per stop is slow.
  const floaters = [...document.querySelectorAll("body *")].filter(floats);
  const seen = new WeakSet<Element>();

  window.__inspectFocus = async () => {
    const tabbedTo = document.activeElement as HTMLElement | null;
    // The end of the page: focus left the document, or wrapped round to the top.
    if (!tabbedTo || tabbedTo === document.body || seen.has(tabbedTo)) return null;
    seen.add(tabbedTo);
    // Measure the ring at rest, once the focus style's colour transitions have run.
    const transitions = document
      .getAnimations()
      .filter((a) => a instanceof CSSTransition)
      .map((a) => a.finished.catch(() => undefined));
    await Promise.all(transitions);
    // Meanwhile the desktop menu may have swapped its stand-in for Radix (decision 053),
    // moving focus to the twin: measure what has focus now. Focus that fell to the page
    // is a failure in its own right.
    const focused = document.activeElement as HTMLElement | null;
    if (!focused || focused === document.body) {
      const what = describe(tabbedTo);
      return { what, hidden: "focus fell to the page", ringContrast: null, ringDetail: "" };
    }
    seen.add(focused);
    // A visually hidden control (a styled checkbox or radio) shows its focus on its label.
    let shown: HTMLElement = focused;
    const box = focused.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) {
      const label = (focused as HTMLInputElement).labels?.[0] ?? focused.closest("label");
      if (label) shown = label;
    }
    const rect = shown.getBoundingClientRect();

    // Hidden? Clip to the viewport, then look for any sample point no overlay covers.
    const [vw, vh] = [document.documentElement.clientWidth, window.innerHeight];
    const [left, right] = [Math.max(rect.left, 0), Math.min(rect.right, vw)];
    const [top, bottom] = [Math.max(rect.top, 0), Math.min(rect.bottom, vh)];
    let hidden: string | null = null;
    if (right - left < 1 || bottom - top < 1) {
      hidden = `off-screen at ${JSON.stringify(rect.toJSON())}`;
    } else {
      const ownLayer = layer(shown);
      const overlays = floaters.filter(
        (o) =>
          !o.contains(shown) && !shown.contains(o) && o.checkVisibility() && layer(o) > ownLayer,
      );
      const boxes = overlays.map((o) => o.getBoundingClientRect());
      let uncovered = false;
      for (let i = 0; i <= 6 && !uncovered; i++) {
        for (let j = 0; j <= 6 && !uncovered; j++) {
          const x = left + ((right - left - 1) * i) / 6 + 0.5;
          const y = top + ((bottom - top - 1) * j) / 6 + 0.5;
          if (!boxes.some((b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom)) {
            uncovered = true;
          }
        }
      }
      if (!uncovered) {
        const by = overlays
          .filter((_, k) => {
            const b = boxes[k]!;
            return b.right > left && b.left < right && b.bottom > top && b.top < bottom;
          })
          .map(describe);
        hidden = `covered by ${by.join(", ")}`;
      }
    }

    // The ring: the outline of the focused element, or of the label that shows its focus.
    let ringEl: HTMLElement | null = null;
    for (let e: HTMLElement | null = focused, n = 0; e && n < 4; e = e.parentElement, n++) {
      const s = getComputedStyle(e);
      if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) {
        ringEl = e;
        break;
      }
    }
    if (!ringEl) return { what: describe(focused), hidden, ringContrast: null, ringDetail: "" };
    const style = getComputedStyle(ringEl);
    const ring = parse(style.outlineColor);
    const width = parseFloat(style.outlineWidth);
    const offset = parseFloat(style.outlineOffset) || 0;
    const d = offset + width / 2;
    const r = ringEl.getBoundingClientRect();
    const cx = (r.left + r.right) / 2;
    const cy = (r.top + r.bottom) / 2;
    const points: [number, number][] = [
      [cx, r.top - d],
      [cx, r.bottom + d],
      [r.left - d, cy],
      [r.right + d, cy],
    ];
    const ringLayer = layer(ringEl);
    let lowest = Infinity;
    const details: string[] = [];
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
      // The ground under the ring: what is painted there, ignoring the ring's own element
      // (an outward ring) and anything floating above the ring's own layer.
      const stack: RGBA[] = [];
      for (const e of document.elementsFromPoint(x, y)) {
        if (offset >= 0 && (e === ringEl || ringEl.contains(e))) continue;
        if (offset < 0 && ringEl.contains(e) && e !== ringEl) continue;
        if (!e.contains(ringEl) && layer(e) > ringLayer) continue;
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) stack.push(bg);
        if (bg[3] >= 1) break;
      }
      const ground = flatten(stack);
      const c = contrast(ring, ground);
      details.push(`${c.toFixed(2)} vs rgb(${ground.slice(0, 3).map(Math.round).join(",")})`);
      lowest = Math.min(lowest, c);
    }
    return {
      what: describe(focused),
      hidden,
      ringContrast: lowest === Infinity ? null : lowest,
      ringDetail: `${style.outlineColor}: ${details.join("; ")}`,
    };
  };
}

/** Tabs from the top of the page to the end, measuring every stop. */
async function tabThrough(page: Page): Promise<Stop[]> {
  await page.evaluate(installInspector);
  const stops: Stop[] = [];
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(async () => (await window.__inspectFocus?.()) ?? null);
    if (stop === null) break; // focus left the document: the end of the page
    stops.push(stop);
  }
  return stops;
}

/** Tabs through `path`, already open at its top, and lists every stop that fails. */
export async function focusProblems(page: Page, path: string): Promise<string[]> {
  const stops = await tabThrough(page);
  expect.soft(stops.length, `${path} has focus stops`).toBeGreaterThan(5);
  const problems: string[] = [];
  for (const { what, hidden, ringContrast, ringDetail } of stops) {
    if (hidden) problems.push(`${path} ${what}: ${hidden}`);
    if (ringContrast === null) problems.push(`${path} ${what}: no focus ring`);
    else if (ringContrast < 3) problems.push(`${path} ${what}: ring ${ringDetail}`);
  }
  return problems;
}
