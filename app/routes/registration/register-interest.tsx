import { data, redirect } from "react-router";

import type { Route } from "./+types/register-interest";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import { registrationCopy } from "../../content/registration.ts";
import { registrationIsland } from "../../features/registration/island.tsx";
import { handleRegistrationRequest } from "../../features/registration/register.server.ts";
import { appServicesContext } from "../../lib/app-context.ts";
import { Island } from "../../lib/island.tsx";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/register-interest");

/**
 * A document response (the form posted without JavaScript) only carries the
 * action's headers if the route passes them on: Retry-After on a 503 must reach
 * the client (found by tests/e2e/faults.spec.ts).
 */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

/**
 * The form posted without JavaScript (POST /register-interest). The form's script posts
 * to the JSON twin, ./submit.ts, instead.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const outcome = await handleRegistrationRequest(request, context.get(appServicesContext));
  // Without JavaScript: 303 to the thank-you page, so a refresh cannot post again.
  if (outcome.redirectTo) return redirect(outcome.redirectTo, 303);
  return data(outcome.result, { status: outcome.status, headers: outcome.headers });
}

export default function Page({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero title={pages["/register-interest"].heading}>{registrationCopy.intro}</PageHero>
      <Section>
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-14">
          {/* One grid cell: the island's toast region must not become a grid item. */}
          <div className="min-w-0">
            <Island island={registrationIsland} props={{ initialResult: actionData ?? null }} />
          </div>
          <aside aria-labelledby="next-steps-heading" className="lg:pt-2">
            <h2 id="next-steps-heading" className="text-xl">
              {registrationCopy.nextStepsTitle}
            </h2>
            <ol className="mt-5 flex flex-col gap-5">
              {registrationCopy.nextSteps.map((step, index) => (
                <li key={step} className="flex gap-3 text-base leading-relaxed text-ink-soft">
                  <span
                    aria-hidden="true"
                    className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 font-serif text-sm font-semibold text-brand-800"
                  >
                    {index + 1}
                  </span>
                  {step}
                </li>
              ))}
            </ol>
          </aside>
        </div>
      </Section>
    </>
  );
}
