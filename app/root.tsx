import { type ReactNode, useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
} from "react-router";

import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { SiteShell } from "./components/layout/site-shell.tsx";
import { Toaster } from "./components/layout/toaster.tsx";
import { ButtonLink } from "./components/ui/button.tsx";
import { siteFlags } from "./config/site.ts";
import { ConsentBanner } from "./features/consent/consent-banner.tsx";
import { ConsentProvider } from "./features/consent/consent-context.tsx";
import { consentScript } from "./features/consent/consent-script.ts";
import { CookieSettingsButton } from "./features/consent/cookie-settings-button.tsx";
import { useNonce } from "./lib/nonce.tsx";
import { useFocusHeadingOnNavigation } from "./lib/use-focus-heading-on-navigation.ts";

export const links: Route.LinksFunction = () => [
  // With a precedence, React writes the stylesheet first in <head>, ahead of the module
  // preloads, so the browser asks for it first (docs/decisions/048).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html
      lang="en-GB"
      className={siteFlags.showRegulatoryNotice ? "[--site-top:40px]" : "[--site-top:0px]"}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Before the first paint: show the consent banner only if no valid choice is stored. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: consentScript }} />
        <meta name="theme-color" content="#102d2c" />
        <Meta />
        <Links />
      </head>
      <body>
        <ConsentProvider>{children}</ConsentProvider>
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // A marker for end-to-end tests and scripts: React has hydrated and handlers are live.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useFocusHeadingOnNavigation();
  return (
    <SiteShell cookieSettings={<CookieSettingsButton />} consentBanner={<ConsentBanner />}>
      <Outlet />
    </SiteShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) {
    console.error(error);
  }
  return (
    <SiteShell cookieSettings={<CookieSettingsButton />} consentBanner={<ConsentBanner />}>
      <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-4 py-24 sm:px-6">
        <title>Something went wrong | Meridian Men&apos;s Health</title>
        <h1 className="text-4xl">Unexpected Application Error!</h1>
        <p className="text-lg text-ink-soft">
          Something went wrong on our side while showing this page. Please try again, or go back to
          the home page.
        </p>
        <ButtonLink to="/" reloadDocument>
          Return to Homepage
        </ButtonLink>
      </section>
    </SiteShell>
  );
}
