import { Suspense, lazy, useEffect, useId, useRef } from "react";
import { Link } from "react-router";

import { useConsent } from "./consent-context.tsx";
import { acceptAll, essentialOnly } from "./consent-record.ts";
import { Button } from "../../components/ui/button.tsx";
import { consentBannerText } from "../../content/cookies.ts";

// The dialog is split off so that no page pays for it until a visitor opens it
// (docs/decisions/046). Pointing at or focusing a button that opens it starts the load.
const PreferencesDialog = lazy(() => import("./preferences-dialog.tsx"));
export const preloadPreferences = () => void import("./preferences-dialog.tsx");

/**
 * The bottom banner shown until the visitor chooses, and the preferences dialog. It is in the
 * prerendered HTML, early in the tab order (just after the skip link), and app.css hides it
 * unless <html data-consent="ask"> (set by the inline consent script before the first paint).
 * While it shows, the page reserves its height below the content and as scroll padding, so a
 * focused element is never scrolled beneath it (docs/decisions/058).
 */
export function ConsentBanner() {
  const { bannerOpen, choose, preferencesOpen, setPreferencesOpen } = useConsent();
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);

  // The exact height, for the reserved space (app.css holds a close default until now).
  useEffect(() => {
    const banner = ref.current;
    if (!banner) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => {
      root.setProperty("--consent-banner-h", `${banner.offsetHeight}px`);
    });
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.removeProperty("--consent-banner-h");
    };
  }, [bannerOpen]);

  return (
    <>
      {bannerOpen ? (
        <section
          ref={ref}
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
                    className="font-medium text-brand-800 underline underline-offset-2"
                    onClick={() => setPreferencesOpen(true)}
                    onPointerEnter={preloadPreferences}
                    onFocus={preloadPreferences}
                  >
                    {consentBannerText.manage}
                  </button>
                </span>
              </p>
            </div>
            {/* Equal prominence: both choices share one style, as UK guidance expects. */}
            <div className="grid shrink-0 grid-cols-2 gap-2">
              <Button type="button" variant="secondary" size="sm" onClick={() => choose(acceptAll)}>
                {consentBannerText.acceptAll}
              </Button>
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => choose(essentialOnly)}
              >
                {consentBannerText.essentialOnly}
              </Button>
            </div>
          </div>
        </section>
      ) : null}
      {preferencesOpen ? (
        <Suspense fallback={null}>
          <PreferencesDialog />
        </Suspense>
      ) : null}
    </>
  );
}
