import { CONSENT_LIFETIME_MS, CONSENT_STORAGE_KEY, ISO_DATE_TIME } from "./consent-record.ts";
import { ATTRIBUTION_STORAGE_KEY, attributionFields } from "../../../contract/registrations.ts";

const settings = {
  key: CONSENT_STORAGE_KEY,
  lifetimeMs: CONSENT_LIFETIME_MS,
  isoDateTime: ISO_DATE_TIME.source,
  visitSource: { key: ATTRIBUTION_STORAGE_KEY, fields: attributionFields },
};

/** Decisions 058, 105, 134. Serialised by Function.prototype.toString: it uses nothing outside. */
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
      // Storage switched off: the visitor chose that, so say nothing.
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
        new RegExp(config.isoDateTime).test(v["decidedAt"]) &&
        // The pattern lets month 13 through; such a date would never expire.
        !isNaN(Date.parse(v["decidedAt"]))
      ) {
        // A choice older than its lifetime is asked again; nothing is wrong with it.
        if (Date.now() - Date.parse(v["decidedAt"]) > config.lifetimeMs) return null;
        return choiceOf((category) => v[category] as boolean);
      }
      console.error("The stored cookie consent choice has the wrong shape; asking again.");
    } catch (error) {
      // Specification section 8.
      console.error("The stored cookie consent choice could not be read; asking again.", error);
    }
    return null;
  }

  const initial = stored();
  root.setAttribute("data-consent", initial ? "stored" : "ask");

  const visit = config.visitSource;
  const parts = ["source", "medium", "campaign", "referrer"] as const;
  // Kept once per visit: the page the visitor landed on (or allowed analytics on).
  function trackVisit(keep: boolean) {
    try {
      if (!keep) sessionStorage.removeItem(visit.key);
      if (!keep || sessionStorage.getItem(visit.key) !== null) return;
      const query = new URLSearchParams(location.search);
      let referrer = "";
      try {
        referrer = new URL(document.referrer).hostname;
      } catch {
        // No referrer.
      }
      const kept = Object.fromEntries(parts.map((part) => [part, query.get(`utm_${part}`) ?? ""]));
      kept["referrer"] = referrer === location.hostname ? "" : referrer;
      sessionStorage.setItem(visit.key, JSON.stringify(kept));
    } catch {
      // Storage switched off.
    }
  }
  trackVisit(initial !== null && initial.analytics);

  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-visit-source")) return;
      let kept: Record<string, unknown> | null = null;
      try {
        const raw = stored()?.analytics ? sessionStorage.getItem(visit.key) : null;
        kept = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      } catch {
        // Storage switched off.
      }
      const fill = (name: string, value: unknown) => {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement) input.value = typeof value == "string" ? value : "";
      };
      fill(visit.fields.allowed, kept ? "yes" : "");
      for (const part of parts) fill(visit.fields[part], kept && kept[part]);
    },
    true,
  );

  // The same record and field order as serializeConsent.
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
    trackVisit(choice.analytics);
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

  // Focus goes back to the opener if still on screen (the banner's is not, once it hides).
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
  // Set only when app.css's default reserve is wrong: the inherited property restyles every
  // element, 25-37 ms at 4x CPU slowdown on /pricing (decision 132).
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

export const consentScript = `(${consentBehaviour.toString()})(${JSON.stringify(settings)});`;
