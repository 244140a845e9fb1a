import { data } from "react-router";

import { ButtonLink } from "../components/ui/button.tsx";
import { notFoundPage } from "../content/pages.ts";
import { useNonce } from "../lib/nonce.tsx";
import { metaFor } from "../lib/seo.ts";

export const loader = () => data(null, { status: 404 });

export const meta = () => metaFor(notFoundPage, null);

/** The specification's console line for an unknown path (section 8): the page never hydrates. */
const logAttempt = `console.error("404 Error: User attempted to access non-existent route:", location.pathname)`;

export default function NotFound() {
  const nonce = useNonce();
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
