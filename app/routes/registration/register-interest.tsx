import { data, redirect, useNavigation } from "react-router";

import type { Route } from "./+types/register-interest";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { retryPolicy } from "../../config/ui.ts";
import { pages } from "../../content/pages.ts";
import { registrationCopy } from "../../content/registration.ts";
import {
  handleRegistration,
  registrationLogTo,
} from "../../features/registration/register.server.ts";
import { RegistrationForm } from "../../features/registration/registration-form.tsx";
import { makeBodyReplayable } from "../../features/registration/replayable-body.ts";
import type { RegistrationFormResult } from "../../features/registration/result.ts";
import {
  TransientFailure,
  submitWithRetry,
} from "../../features/registration/submit-with-retry.ts";
import { ThankYouCard } from "../../features/registration/thank-you-card.tsx";
import { appServicesContext } from "../../lib/app-context.ts";
import { notify } from "../../lib/notify.ts";
import { hydratedPage } from "../../lib/page-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

export const meta: Route.MetaFunction = () => pageMeta("/register-interest");

/** React hydrates this page (docs/decisions/105). */
export const handle = hydratedPage;

/**
 * A document response (the form posted without JavaScript) only carries the
 * action's headers if the route passes them on: Retry-After on a 503 must reach
 * the client (found by tests/e2e/faults.spec.ts).
 */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

/** The server: the only place a registration is stored (POST /register-interest). */
export async function action({ request, context }: Route.ActionArgs) {
  const { registrations, logger } = context.get(appServicesContext);
  // A body that is not a form reads as an empty form, which fails validation (400).
  const form = await request.formData().catch(() => new FormData());
  const outcome = await handleRegistration(form, registrations, registrationLogTo(logger));
  // Without JavaScript: 303 to the thank-you page, so a refresh cannot post again.
  if (outcome.redirectTo) return redirect(outcome.redirectTo, 303);
  return data(outcome.result, { status: outcome.status, headers: outcome.headers });
}

/**
 * The browser: sends the submission to the server action, retrying transient
 * failures (network, 5xx, 429) with the same body and idempotency key, and tells
 * the visitor how it went.
 */
export async function clientAction({
  request,
  serverAction,
}: Route.ClientActionArgs): Promise<RegistrationFormResult> {
  await makeBodyReplayable(request);
  try {
    const result = await submitWithRetry(
      async () => {
        const answer = await serverAction();
        if (answer.status === "unavailable") {
          throw new TransientFailure(answer.message, answer.retryAfterSeconds * 1000);
        }
        return answer;
      },
      { policy: retryPolicy, signal: request.signal },
    );
    if (result.status === "success") notify.success(registrationCopy.toasts.success);
    return result;
  } catch (error) {
    // Superseded by a newer submission or navigation: React Router drops this result.
    if (request.signal.aborted) throw error;
    console.error(error);
    notify.error(registrationCopy.toasts.failure);
    return { status: "failed" };
  }
}

export default function Page({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state === "submitting";

  return (
    <>
      <PageHero title={pages["/register-interest"].heading}>{registrationCopy.intro}</PageHero>
      <Section>
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-14">
          {actionData?.status === "success" ? (
            <ThankYouCard moveFocus={hydrated} />
          ) : (
            <RegistrationForm result={actionData} pending={pending} />
          )}
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
