import { CalendarClock, Check, PoundSterling, X } from "lucide-react";
import { Link } from "react-router";

import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { LevelBadge } from "../../components/content/level-badge.tsx";
import { MedicalNote } from "../../components/content/notices.tsx";
import { ReviewLine } from "../../components/content/review-line.tsx";
import { SingleAccordion } from "../../components/content/single-accordion.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import {
  treatmentOptions,
  treatmentsCostNote,
  treatmentsCta,
  treatmentsIntro,
} from "../../content/treatments.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/treatment-options");

const effectivenessTone = { Excellent: "strong", Good: "medium", Moderate: "soft" } as const;

export default function TreatmentOptions() {
  return (
    <>
      <PageHero eyebrow="TRT" title={pages["/treatment-options"].heading}>
        <p>{treatmentsIntro}</p>
        <ReviewLine page="/treatment-options" />
      </PageHero>

      <Section id="overview" title="At a glance">
        <ul className="grid gap-6 lg:grid-cols-3">
          {treatmentOptions.map((option) => (
            <li key={option.id}>
              <article
                aria-labelledby={`${option.id}-card`}
                className="flex h-full flex-col rounded-card border border-line bg-surface p-6 shadow-card sm:p-7"
              >
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <h3 id={`${option.id}-card`} className="text-2xl">
                    {option.name}
                  </h3>
                  <LevelBadge
                    label="Effectiveness"
                    value={option.effectiveness}
                    tone={effectivenessTone[option.effectiveness]}
                  />
                </div>
                <p className="mt-3 leading-relaxed text-ink-soft">{option.benefits}</p>
                <dl className="mt-6 space-y-3 border-t border-line pt-5">
                  {(
                    [
                      [CalendarClock, "Schedule", option.schedule],
                      [PoundSterling, "Monthly cost", option.cost],
                    ] as const
                  ).map(([Icon, term, value]) => (
                    <div key={term} className="relative pl-8">
                      <dt className="text-sm text-muted">
                        <Icon
                          aria-hidden="true"
                          className="absolute top-0.5 left-0 size-5 text-brand-700"
                        />
                        {term}
                      </dt>
                      <dd className="font-semibold text-ink">{value}</dd>
                    </div>
                  ))}
                </dl>
              </article>
            </li>
          ))}
        </ul>
        <p className="mt-5 max-w-3xl text-sm text-muted">
          {treatmentsCostNote.text}{" "}
          <Link
            to={treatmentsCostNote.link.to}
            className="font-semibold text-brand-800 underline underline-offset-2"
          >
            {treatmentsCostNote.link.label}
          </Link>
        </p>
      </Section>

      <Section
        id="details"
        tone="surface"
        title="Treatment details"
        intro="Open a treatment to see how it works, its pros and cons, and the preparations available."
      >
        <SingleAccordion
          items={treatmentOptions.map((option) => ({
            id: option.id,
            title: (
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                {option.name}
                <span className="text-sm font-normal text-muted">{option.cost}</span>
              </span>
            ),
            content: (
              <div className="space-y-6">
                <div className="space-y-3">
                  <p>{option.description}</p>
                  <p>{option.details}</p>
                </div>
                <div className="grid gap-6 md:grid-cols-2">
                  {(
                    [
                      ["Pros", option.pros, Check, "text-success"],
                      ["Cons", option.cons, X, "text-danger"],
                    ] as const
                  ).map(([title, items, Icon, colour]) => (
                    <div key={title}>
                      <h4 className="font-sans text-base font-semibold text-ink">{title}</h4>
                      <ul className="mt-2 space-y-2">
                        {items.map((item) => (
                          <li key={item} className="flex gap-2">
                            <Icon aria-hidden="true" className={`mt-1 size-4 shrink-0 ${colour}`} />
                            {item}
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
                <div className="grid gap-6 md:grid-cols-3">
                  <div className="md:col-span-1">
                    <h4 className="font-sans text-base font-semibold text-ink">
                      Available preparations
                    </h4>
                    <ul className="mt-2 list-disc space-y-1 pl-5 marker:text-brand-600">
                      {option.preparations.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                  </div>
                  <div>
                    <h4 className="font-sans text-base font-semibold text-ink">Dosing schedule</h4>
                    <p className="mt-2">{option.schedule}</p>
                  </div>
                  <div>
                    <h4 className="font-sans text-base font-semibold text-ink">Monthly cost</h4>
                    <p className="mt-2">{option.cost}</p>
                  </div>
                </div>
              </div>
            ),
          }))}
        />
        <MedicalNote className="mt-8" />
      </Section>

      <CtaPanel id="treatments-cta" cta={treatmentsCta} />
    </>
  );
}
