import { useEffect } from "react";
import { data, useLocation } from "react-router";

import { ButtonLink } from "../components/ui/button.tsx";
import { notFoundPage } from "../content/pages.ts";
import { useNonce } from "../lib/nonce.tsx";
import { metaFor } from "../lib/seo.ts";
import type { Route } from "./+types/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => metaFor(notFoundPage, null);

/** The specification's console line for an unknown path (section 8). */
const logAttempt = `console.error("404 Error: User attempted to access non-existent route:", location.pathname)`;

export default function NotFound() {
  const { pathname } = useLocation();
  const nonce = useNonce();

  // After a client-side navigation (from a hydrated page) the effect logs; on a document
  // load, which hydrates nothing (decision 105), the inline script below does.
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="font-serif text-8xl font-semibold text-brand-700" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl">
        <span className="sr-only">404: </span>
        {notFoundPage.heading}
      </h1>
      <p className="mt-4 text-lg text-ink-soft">
        The page you were looking for has moved or never existed.
      </p>
      <ButtonLink to="/" className="mt-8">
        Return to Home
      </ButtonLink>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: logAttempt }} />
    </section>
  );
}
