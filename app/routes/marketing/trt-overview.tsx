import { ArrowRight, CircleAlert } from "lucide-react";

import { CheckList } from "../../components/content/check-list.tsx";
import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { IconPointGrid } from "../../components/content/icon-point-grid.tsx";
import { LevelBadge } from "../../components/content/level-badge.tsx";
import { MedicalNote } from "../../components/content/notices.tsx";
import { ReviewLine } from "../../components/content/review-line.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import {
  benefits,
  candidates,
  impactAreas,
  trtCta,
  trtIntro,
  trtLinks,
  whatIsTrt,
} from "../../content/trt.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/trt-overview");

const impactTone = { "Very High": "strong", High: "medium", Medium: "soft" } as const;

export default function TrtOverview() {
  return (
    <>
      <PageHero eyebrow="TRT" title={pages["/trt-overview"].heading}>
        <p>{trtIntro}</p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ButtonLink to={trtLinks.howItWorks.to} size="lg">
            {trtLinks.howItWorks.label}
          </ButtonLink>
          <ButtonLink to={trtLinks.consultation.to} variant="secondary" size="lg">
            {trtLinks.consultation.label}
          </ButtonLink>
        </div>
        <ReviewLine page="/trt-overview" />
      </PageHero>

      <Section id="what-is-trt" title={whatIsTrt.title}>
        <div className="max-w-3xl space-y-4 text-lg leading-relaxed text-ink-soft">
          {whatIsTrt.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
        <MedicalNote className="mt-8 max-w-3xl" />
      </Section>

      <Section id="benefits" tone="surface" title={benefits.title} intro={benefits.intro}>
        <IconPointGrid points={benefits.items} />
      </Section>

      <Section id="daily-life" title={impactAreas.title} intro={impactAreas.intro}>
        <ul className="grid gap-5 md:grid-cols-2">
          {impactAreas.items.map((item) => (
            <li key={item.area} className="rounded-card border border-line bg-surface p-6">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h3 className="text-xl">{item.area}</h3>
                <LevelBadge label="Impact" value={item.impact} tone={impactTone[item.impact]} />
              </div>
              <p className="mt-3 leading-relaxed text-ink-soft">{item.body}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="candidates" tone="sand" title={candidates.title} intro={candidates.intro}>
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="rounded-card border border-line bg-surface p-6 sm:p-8">
            <CheckList items={candidates.criteria} />
          </div>
          <div className="rounded-card border border-line bg-surface p-6 sm:p-8">
            <h3 className="flex items-center gap-2 text-xl">
              <CircleAlert aria-hidden="true" className="size-5 text-brass" />
              {candidates.notSuitable.title}
            </h3>
            <ul className="mt-4 list-disc space-y-2 pl-6 leading-relaxed text-ink-soft marker:text-brass">
              {candidates.notSuitable.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        </div>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ButtonLink to={trtLinks.consultation.to} variant="secondary">
            {trtLinks.consultation.label}
            <ArrowRight aria-hidden="true" />
          </ButtonLink>
          <ButtonLink to={trtLinks.treatments.to} variant="quiet">
            {trtLinks.treatments.label}
            <ArrowRight aria-hidden="true" />
          </ButtonLink>
        </div>
      </Section>

      <CtaPanel id="trt-cta" cta={trtCta} />
    </>
  );
}
