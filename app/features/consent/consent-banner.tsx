import { Suspense, lazy, useId } from "react";
import { Link } from "react-router";

import { useConsent } from "./consent-context.tsx";
import { acceptAll, essentialOnly } from "./consent-record.ts";
import { Button } from "../../components/ui/button.tsx";
import { consentBannerText } from "../../content/cookies.ts";

// The dialog is split off so that no page pays for it until a visitor opens it
// (docs/decisions/046). Pointing at or focusing a button that opens it starts the load.
const PreferencesDialog = lazy(() => import("./preferences-dialog.tsx"));
export const preloadPreferences = () => void import("./preferences-dialog.tsx");

/** The bottom banner shown until the visitor chooses, and the preferences dialog. */
export function ConsentBanner() {
  const { bannerOpen, choose, preferencesOpen, setPreferencesOpen } = useConsent();
  const titleId = useId();

  return (
    <>
      {bannerOpen ? (
        <section
          id="consent-banner"
          aria-labelledby={titleId}
          className="fixed inset-x-0 bottom-0 z-50 border-t border-line bg-surface shadow-[0_-8px_24px_-12px_rgb(21_37_44/0.2)]"
        >
          <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 sm:px-6 lg:flex-row lg:items-center lg:gap-8 lg:px-8">
            <div className="flex-1 text-sm leading-relaxed text-ink-soft">
              <h2 id={titleId} className="mb-1 font-sans text-base font-semibold text-ink">
                {consentBannerText.title}
              </h2>
              <p>
                {consentBannerText.body}{" "}
                <Link
                  to="/cookie-policy"
                  className="font-medium text-brand-800 underline underline-offset-2"
                >
                  Read our cookie policy
                </Link>
                .
              </p>
            </div>
            <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
              {/* Equal prominence: both choices share one style, as UK guidance expects. */}
              <Button variant="secondary" size="sm" onClick={() => choose(acceptAll)}>
                {consentBannerText.acceptAll}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => choose(essentialOnly)}>
                {consentBannerText.essentialOnly}
              </Button>
              <Button
                variant="quiet"
                size="sm"
                className="col-span-2 underline"
                onClick={() => setPreferencesOpen(true)}
                onPointerEnter={preloadPreferences}
                onFocus={preloadPreferences}
              >
                {consentBannerText.manage}
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
