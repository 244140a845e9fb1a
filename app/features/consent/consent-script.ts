import { CONSENT_LIFETIME_MS, CONSENT_STORAGE_KEY, ISO_DATE_TIME } from "./consent-record.ts";
import { ATTRIBUTION_STORAGE_KEY, attributionFields } from "../../../contract/registrations.ts";

/** What the consent part of the page script needs to know, written into it as JSON. */
const settings = {
  key: CONSENT_STORAGE_KEY,
  lifetimeMs: CONSENT_LIFETIME_MS,
  isoDateTime: ISO_DATE_TIME.source,
  visitSource: { key: ATTRIBUTION_STORAGE_KEY, fields: attributionFields },
};

/**
 * The consent part of the inline script at the top of every page (docs/decisions/058, 105).
 * It is serialised with Function.prototype.toString, so it must not use anything from
 * outside its own body.
 *
 * 1. Before the first paint it sets `data-consent` on <html>: "stored" when a valid,
 *    unexpired choice is in localStorage (the banner stays hidden), "ask" otherwise (the
 *    banner shows and its height is reserved). Without JavaScript the attribute is never set,
 *    so the banner and the "Cookie settings" button stay hidden (app.css). The checks are
 *    those of `parseStoredConsent` (consent-script.test.ts compares them).
 * 2. One click listener on the document, added while <head> is still parsing, runs every
 *    consent control on every page, hydrated or not: "Accept All", "Essential Only",
 *    "Manage preferences" and "Cookie settings" (which open the native <dialog>), and the
 *    dialog's own buttons. A tap is therefore never lost to a page still loading. React
 *    renders the markup of these controls but attaches no handlers to them.
 * 3. Only while the visitor allows analytics (decision 134), it keeps in sessionStorage the
 *    first page's utm_source, utm_medium, utm_campaign and the referring site's host name
 *    (never our own) for this visit, and fills them into the hidden fields of a form marked
 *    `data-visit-source` as it is submitted. Refusing analytics deletes what was kept.
 */
export function consentBehaviour(config: typeof settings) {
  const root = document.documentElement;
  const categories = ["analytics", "functional", "marketing"] as const;
  type Choice = Record<(typeof categories)[number], boolean>;
  const choiceOf = (pick: (category: (typeof categories)[number]) => boolean) =>
    Object.fromEntries(categories.map((category) => [category, pick(category)])) as Choice;

  function stored(): Choice | null {
    let raw: string | null;
    try {
      raw = localStorage.getItem(config.key);
    } catch {
      // Storage switched off: ask, and say nothing (the visitor chose that).
      return null;
    }
    if (raw === null) return null;
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      if (
        v &&
        typeof v == "object" &&
        !Array.isArray(v) &&
        v["version"] === 1 &&
        v["essential"] === true &&
        typeof v["analytics"] == "boolean" &&
        typeof v["functional"] == "boolean" &&
        typeof v["marketing"] == "boolean" &&
        typeof v["decidedAt"] == "string" &&
        new RegExp(config.isoDateTime).test(v["decidedAt"])
      ) {
        // A choice older than its lifetime is asked again; nothing is wrong with it.
        if (Date.now() - Date.parse(v["decidedAt"]) > config.lifetimeMs) return null;
        return choiceOf((category) => v[category] as boolean);
      }
      console.error("The stored cookie consent choice has the wrong shape; asking again.");
    } catch (error) {
      // The specification (section 8): an unparseable record is logged and the banner shown.
      console.error("The stored cookie consent choice could not be read; asking again.", error);
    }
    return null;
  }

  const initial = stored();
  root.setAttribute("data-consent", initial ? "stored" : "ask");

  const visit = config.visitSource;
  // Kept once per visit: the page the visitor landed on (or allowed analytics on).
  function keepVisitSource() {
    try {
      if (sessionStorage.getItem(visit.key) !== null) return;
      const query = new URLSearchParams(location.search);
      let referrer = "";
      try {
        referrer = document.referrer ? new URL(document.referrer).hostname : "";
      } catch {
        referrer = "";
      }
      if (referrer === location.hostname) referrer = "";
      sessionStorage.setItem(
        visit.key,
        JSON.stringify({
          source: query.get("utm_source") ?? "",
          medium: query.get("utm_medium") ?? "",
          campaign: query.get("utm_campaign") ?? "",
          referrer,
        }),
      );
    } catch {
      // Storage switched off: nothing is kept.
    }
  }
  function forgetVisitSource() {
    try {
      sessionStorage.removeItem(visit.key);
    } catch {
      // Nothing could have been kept either.
    }
  }
  if (initial && initial.analytics) keepVisitSource();
  else forgetVisitSource();

  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-visit-source")) return;
      let kept: Record<string, unknown> | null = null;
      try {
        const choice = stored();
        const raw = choice && choice.analytics ? sessionStorage.getItem(visit.key) : null;
        kept = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      } catch {
        kept = null;
      }
      const fill = (name: string, value: unknown) => {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement) input.value = typeof value == "string" ? value : "";
      };
      fill(visit.fields.allowed, kept ? "yes" : "");
      for (const part of ["source", "medium", "campaign", "referrer"] as const) {
        fill(visit.fields[part], kept && kept[part]);
      }
    },
    true,
  );

  // The same record, key and field order as serializeConsent (consent-record.ts).
  function save(choice: Choice) {
    try {
      const decidedAt = new Date().toISOString();
      localStorage.setItem(
        config.key,
        JSON.stringify({ version: 1, essential: true, ...choice, decidedAt }),
      );
    } catch (error) {
      console.error("Could not save the cookie consent choice.", error);
    }
    root.setAttribute("data-consent", "stored");
    if (choice.analytics) keepVisitSource();
    else forgetVisitSource();
  }

  let opener: HTMLElement | null = null;

  document.addEventListener("click", (event) => {
    const target = event.target;
    const control = target instanceof Element ? target.closest("[data-consent-action]") : null;
    if (!(control instanceof HTMLElement)) return;
    const dialog = document.getElementById("cookie-preferences");
    if (!(dialog instanceof HTMLDialogElement)) return;
    const action = control.dataset["consentAction"];
    if (action === "open") {
      const current = stored() ?? choiceOf(() => false);
      for (const category of categories) {
        const box = dialog.querySelector(`input[name="${category}"]`);
        if (box instanceof HTMLInputElement) box.checked = current[category];
      }
      opener = control;
      dialog.showModal();
      return;
    }
    // A keyboard user's focus would drop to <body> as the banner hides: it goes to <main>.
    const banner = document.getElementById("consent-banner");
    if (banner && banner.contains(document.activeElement)) {
      document.getElementById("main")?.focus({ preventScroll: true });
    }
    if (action === "all") save(choiceOf(() => true));
    else if (action === "essential") save(choiceOf(() => false));
    else if (action === "save") {
      save(choiceOf((c) => dialog.querySelector(`input[name="${c}"]:checked`) !== null));
    }
    if (dialog.open) {
      event.preventDefault();
      dialog.close();
    }
  });

  // The dialog gives focus back to the button that opened it, if that is still on screen
  // (the banner's "Manage preferences" is not, once a choice hides the banner).
  document.addEventListener(
    "close",
    (event) => {
      if (!(event.target instanceof HTMLElement) || event.target.id !== "cookie-preferences") {
        return;
      }
      const back = opener;
      opener = null;
      if (back && back.isConnected && back.offsetParent !== null) back.focus();
      else document.getElementById("main")?.focus();
    },
    true,
  );
  // The page reserves the banner's exact height while it shows (app.css has a default that
  // fits common phones and desktops). The property is inherited, so setting it restyles every
  // element: 25-37 ms of a 4x slower CPU on /pricing (docs/decisions/132). It is set only
  // when the reserve in place is wrong; the observer runs after layout, so reading it is free.
  function measure() {
    const banner = document.getElementById("consent-banner");
    if (!banner || typeof ResizeObserver != "function") return;
    new ResizeObserver(() => {
      const height = banner.offsetHeight;
      if (height > 0 && parseFloat(getComputedStyle(document.body).paddingBottom) !== height) {
        root.style.setProperty("--consent-banner-h", `${height}px`);
      }
    }).observe(banner);
  }
  if (document.readyState == "loading") document.addEventListener("DOMContentLoaded", measure);
  else measure();
}

/**
 * The consent part of the inline script, as source text. Prerendered pages allow the whole
 * inline script by its hash (computed from the built HTML by scripts/postbuild.ts),
 * request-rendered pages by the request's nonce.
 */
export const consentScript = `(${consentBehaviour.toString()})(${JSON.stringify(settings)});`;
