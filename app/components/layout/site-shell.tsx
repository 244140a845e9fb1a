import type { ReactNode } from "react";

import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";
import { StatusBanner } from "./status-banner.tsx";

/** The frame every page shares: skip link, status banner, header, main and footer. */
export function SiteShell({
  children,
  cookieSettings,
}: {
  children: ReactNode;
  /** The consent feature's footer button: layout does not import features. */
  cookieSettings: ReactNode;
}) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[70] rounded-control bg-brand-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
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
