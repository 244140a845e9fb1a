import { X } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";

import { consentCategories } from "./consent-record.ts";
import { Button } from "../../components/ui/button.tsx";
import { consentBannerText, consentCategoryText } from "../../content/cookies.ts";

/** The page script runs every `data-consent-action` here; React attaches nothing (decision 105). */
export function ConsentBanner() {
  const titleId = useId();
  return (
    <section
      id="consent-banner"
      aria-labelledby={titleId}
      className="fixed inset-x-0 bottom-0 z-50 border-t border-line bg-surface shadow-[0_-8px_24px_-12px_rgb(21_37_44/0.2)]"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-2.5 px-4 py-3 sm:flex-row sm:items-center sm:gap-6 sm:px-6 lg:px-8">
        <div className="flex-1 text-sm leading-snug text-ink-soft">
          <h2 id={titleId} className="inline font-sans text-sm font-semibold text-ink">
            {consentBannerText.title}
          </h2>
          <span className="text-ink">: </span>
          <p className="inline">
            {consentBannerText.body}{" "}
            <span className="whitespace-nowrap">
              <Link
                to="/cookie-policy"
                className="font-medium text-brand-800 underline underline-offset-2"
              >
                {consentBannerText.policyLink}
              </Link>
              <span aria-hidden="true"> · </span>
              <button
                type="button"
                data-consent-action="open"
                className="font-medium text-brand-800 underline underline-offset-2"
              >
                {consentBannerText.manage}
              </button>
            </span>
          </p>
        </div>
        {/* Equal prominence: both choices share one style, as UK guidance expects. */}
        <div className="grid shrink-0 grid-cols-2 gap-2">
          <Button type="button" variant="secondary" size="sm" data-consent-action="all">
            {consentBannerText.acceptAll}
          </Button>
          <Button type="button" variant="secondary" size="sm" data-consent-action="essential">
            {consentBannerText.essentialOnly}
          </Button>
        </div>
      </div>
    </section>
  );
}

/** Opened with showModal(), so the browser makes the page inert and traps focus (decision 105). */
export function PreferencesDialog() {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <dialog
      id="cookie-preferences"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg overflow-y-auto rounded-card bg-surface p-6 text-ink shadow-card backdrop:bg-ink/40"
    >
      <form method="dialog">
        <h2 id={titleId} className="pr-10 font-serif text-2xl">
          Cookie preferences
        </h2>
        <p id={descriptionId} className="mt-2 text-sm text-ink-soft">
          Choose which kinds of cookies we may use. You can change this at any time from the link at
          the foot of every page.
        </p>
        <ul className="mt-5 divide-y divide-line">
          {consentCategories.map((category) => {
            const text = consentCategoryText[category];
            const id = `consent-${category}`;
            const locked = category === "essential";
            return (
              <li key={category} className="flex items-start justify-between gap-4 py-4">
                <div>
                  <label htmlFor={id} className="font-semibold text-ink">
                    {text.label}
                  </label>
                  <p id={`${id}-description`} className="mt-1 text-sm text-muted">
                    {text.description}
                  </p>
                </div>
                {/* A checkbox drawn as a switch: the thumb is a background, so every engine draws it. */}
                <input
                  id={id}
                  type="checkbox"
                  role="switch"
                  name={category}
                  aria-describedby={`${id}-description`}
                  defaultChecked={locked}
                  disabled={locked}
                  className="mt-1 h-7 w-12 shrink-0 cursor-pointer appearance-none rounded-full bg-line bg-[radial-gradient(circle,white_0_10px,transparent_11px)] bg-size-[28px_28px] bg-position-[left_0_center] bg-no-repeat transition-[background-color,background-position] checked:bg-brand-700 checked:bg-position-[right_0_center] disabled:cursor-not-allowed disabled:opacity-70"
                />
              </li>
            );
          })}
        </ul>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button type="submit" variant="secondary" data-consent-action="essential">
            {consentBannerText.essentialOnly}
          </Button>
          <Button type="submit" data-consent-action="save">
            {consentBannerText.save}
          </Button>
        </div>
        <button
          type="submit"
          data-consent-action="close"
          aria-label="Close"
          className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-sand"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </form>
    </dialog>
  );
}

export function CookieSettingsButton() {
  return (
    <button
      type="button"
      data-consent-action="open"
      className="min-h-8 text-brand-100 underline underline-offset-2 hover:text-white"
    >
      Cookie settings
    </button>
  );
}
