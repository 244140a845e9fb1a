/**
 * Every way the engine journeys (tests/engines/journeys.ts) find something on a page, in
 * one place. Queries name what a visitor perceives: a role, the visible text or label,
 * a link's href. No classes, no framework attributes. The functions below run inside
 * the page (both drivers serialise them), so each is self-contained.
 */

export type Role =
  | "button"
  | "link"
  | "heading"
  | "summary"
  | "dialog"
  | "textbox"
  /** A radio button or checkbox (or switch), found and clicked by its label. */
  | "choice"
  /** The innermost visible element whose text contains `name`. */
  | "text";

export type Query = {
  role: Role;
  /** Accessible name (whitespace collapsed): equal, or starting with it when `prefix`. */
  name?: string;
  prefix?: boolean;
  /** For links: the href attribute. */
  href?: string;
  /** Only inside the nearest landmark or dialog whose name is this ("Main", "Cookies on this site"). */
  within?: string;
};

/** The first visible element matching the query, or null. Runs in the page. */
export function locate(query: Query): Element | null {
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const shown = (el: Element) =>
    el.getClientRects().length > 0 &&
    (el as HTMLElement).checkVisibility({ visibilityProperty: true, opacityProperty: false });
  const ownText = (el: Element): string => {
    let text = "";
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? "";
      else if (node instanceof Element) {
        if (node.getAttribute("aria-hidden") === "true" || node.getClientRects().length === 0)
          continue;
        text += ` ${ownText(node)} `;
      }
    }
    return text;
  };
  const nameOf = (el: Element): string => {
    const label = el.getAttribute("aria-label");
    if (label) return norm(label);
    const by = el.getAttribute("aria-labelledby");
    if (by)
      return norm(
        by
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent)
          .join(" "),
      );
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return norm(ownText(labels[0] as Element));
    return norm(ownText(el));
  };
  const matches = (name: string) =>
    query.name === undefined ||
    (query.prefix ? name.startsWith(query.name) : name === norm(query.name));

  let scope: ParentNode = document;
  if (query.within !== undefined) {
    const landmarkName = (el: Element) => {
      const by = el.getAttribute("aria-labelledby");
      const text = by
        ? by
            .split(" ")
            .map((id) => document.getElementById(id)?.textContent)
            .join(" ")
        : el.getAttribute("aria-label");
      return norm(text);
    };
    const found = [
      ...document.querySelectorAll("nav, section, [role=region], [role=dialog], dialog"),
    ].find((el) => shown(el) && landmarkName(el) === query.within);
    if (!found) return null;
    scope = found;
  }

  const all = (selector: string) => [...scope.querySelectorAll(selector)].filter(shown);
  switch (query.role) {
    case "button":
      return (
        all("button, [role=button], input[type=submit]").find((el) => matches(nameOf(el))) ?? null
      );
    case "link":
      return (
        all("a[href]").find(
          (el) =>
            matches(nameOf(el)) &&
            (query.href === undefined || el.getAttribute("href") === query.href),
        ) ?? null
      );
    case "heading":
      return (
        all("h1, h2, h3, h4, h5, h6, [role=heading]").find((el) => matches(nameOf(el))) ?? null
      );
    case "summary":
      return all("summary").find((el) => matches(nameOf(el))) ?? null;
    case "dialog":
      return all("dialog[open], [role=dialog]").find((el) => matches(nameOf(el))) ?? null;
    case "textbox":
      return (
        all("input:not([type=hidden]):not([type=radio]):not([type=checkbox]), textarea").find(
          (el) => matches(nameOf(el)),
        ) ?? null
      );
    case "choice": {
      // The label a visitor clicks; for a switch button, the button itself.
      const label = all("label").find((el) => matches(norm(ownText(el))));
      if (label) {
        const control = (label as HTMLLabelElement).control;
        return control && shown(control) && control.tagName === "BUTTON" ? control : label;
      }
      return all("[role=switch], [role=checkbox]").find((el) => matches(nameOf(el))) ?? null;
    }
    case "text": {
      const hits = all("body *").filter((el) =>
        norm(el.textContent).includes(norm(query.name ?? "")),
      );
      return hits.find((el) => !hits.some((other) => other !== el && el.contains(other))) ?? null;
    }
  }
}

/** Scrolls an element to the middle of the viewport, as a visitor would before a tap. Runs in the page. */
export function centre(el: Element): void {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
}

/** Whether a choice found by `locate` (its label, or a switch) is on. Runs in the page. */
export function isChecked(el: Element): boolean {
  if (el instanceof HTMLLabelElement)
    return (el.control as HTMLInputElement | null)?.checked ?? false;
  if (el instanceof HTMLInputElement) return el.checked;
  return el.getAttribute("aria-checked") === "true";
}

/**
 * Whether the controls of the page's React island (quiz, calculator, form) have been
 * hydrated: React has attached its props to the element. Runs in the page.
 */
export function reactOwns(el: Element): boolean {
  return Object.keys(el).some((key) => key.startsWith("__reactProps"));
}

/**
 * The shell's controls (the consent banner, its dialog, both menus) are run by the page
 * script in <head> from the first paint (docs/decisions/105): a journey clicks them as
 * soon as they are painted.
 */
export function shellReady(_el: Element): boolean {
  return true;
}
