import { type ReactNode, useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
} from "react-router";

import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { menuScript } from "./components/layout/menu-script.ts";
import { SiteShell } from "./components/layout/site-shell.tsx";
import { ButtonLink } from "./components/ui/button.tsx";
import { siteFlags } from "./config/site.ts";
import { clinic } from "./content/clinic.ts";
import {
  ConsentBanner,
  CookieSettingsButton,
  PreferencesDialog,
} from "./features/consent/consent-banner.tsx";
import { consentScript } from "./features/consent/consent-script.ts";
import { useNonce } from "./lib/nonce.tsx";

/** The audit's baseline (scripts/vite-spa.config.ts); every other page uses islands (126). */
const clientOnly = import.meta.env.VITE_CLIENT_ONLY === "1";

export const links: Route.LinksFunction = () => [
  // With a precedence React writes it first in <head>, ahead of the preloads (decision 048).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Console pages have their own frame (app/routes/console/layout.tsx, decision 133).
  const isConsole = useMatches().some((match) => match.id.startsWith("routes/console/"));
  return (
    <html
      lang="en-GB"
      className={siteFlags.showRegulatoryNotice ? "[--site-top:40px]" : "[--site-top:0px]"}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {isConsole ? null : (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: consentScript + menuScript }} />
        )}
        <meta name="theme-color" content="#102d2c" />
        <Meta />
        <Links />
      </head>
      <body>
        {isConsole ? (
          children
        ) : (
          <>
            <SiteShell cookieSettings={<CookieSettingsButton />} consentBanner={<ConsentBanner />}>
              {children}
            </SiteShell>
            <PreferencesDialog />
          </>
        )}
        {clientOnly ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // In the client-only baseline: React has rendered and handlers are live.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-4 py-24 sm:px-6">
      <title>{`Something went wrong | ${clinic.name}`}</title>
      <h1 className="text-4xl">Unexpected Application Error!</h1>
      <p className="text-lg text-ink-soft">
        Something went wrong on our side while showing this page. Please try again, or go back to
        the home page.
      </p>
      <ButtonLink to="/">Return to Homepage</ButtonLink>
    </section>
  );
}
