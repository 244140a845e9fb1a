import type { Route } from "./+types/register-interest";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import { registrationCopy } from "../../content/registration.ts";
import { registrationIsland } from "../../features/registration/registration-form.tsx";
import { Island } from "../../lib/island.tsx";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/register-interest");

export { action, headers, middleware } from "../../features/registration/register.server.ts";

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
