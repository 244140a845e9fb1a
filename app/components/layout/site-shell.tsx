import type { ReactNode } from "react";

import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";
import { StatusBanner } from "./status-banner.tsx";

export function SiteShell({
  children,
  cookieSettings,
  consentBanner,
}: {
  children: ReactNode;
  /** The consent feature's footer button: layout does not import features. */
  cookieSettings: ReactNode;
  /** The consent banner: first after the skip link, so it comes early in the tab order. */
  consentBanner: ReactNode;
}) {
  return (
    <>
      {/* Its ring is drawn inside: it floats over both the dark banner and the light header. */}
      <a
        href="#main"
        className="sr-only z-[70] rounded-control bg-brand-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:-outline-offset-4"
      >
        Skip to main content
      </a>
      {consentBanner}
      <StatusBanner />
      <SiteHeader />
      <main
        id="main"
        tabIndex={-1}
        className="min-h-[60vh] pt-[calc(var(--site-top)+var(--spacing-header))] outline-none"
      >
        {children}
      </main>
      <SiteFooter cookieSettings={cookieSettings} />
    </>
  );
}
