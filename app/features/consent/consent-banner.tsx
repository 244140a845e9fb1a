import { useId } from "react";
import { Link } from "react-router";

import { Button } from "../../components/ui/button.tsx";
import { consentBannerText } from "../../content/cookies.ts";

/**
 * The bottom banner shown until the visitor chooses. It is in every page's HTML, early in the
 * tab order (just after the skip link), and app.css hides it unless <html data-consent="ask">.
 * Its buttons carry `data-consent-action` and are run by the inline page script
 * (consent-script.ts) from the first paint, on hydrated pages too: React attaches nothing to
 * them. While it shows, the page reserves its height below the content and as scroll padding,
 * so a focused element is never scrolled beneath it (docs/decisions/058, 105).
 */
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
