import { ArrowRight, ClipboardCheck, ShieldCheck, Star } from "lucide-react";

import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { IconPointGrid } from "../../components/content/icon-point-grid.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { awaitingApproval, siteFlags } from "../../config/site.ts";
import { clinic } from "../../content/clinic.ts";
import { closingCta, homeHero, homeSteps, quizCard, trustSection } from "../../content/home.ts";
import { medicalClinicJsonLd, pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/", [medicalClinicJsonLd()]);

export default function Home() {
  return (
    <>
      <section
        aria-labelledby="home-hero-heading"
        className="relative overflow-hidden border-b border-line bg-gradient-to-b from-sand/70 to-paper"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 600 600"
          className="pointer-events-none absolute -top-40 -right-40 size-[36rem] opacity-60 sm:size-[44rem]"
        >
          {[120, 180, 240, 300].map((r) => (
            <circle
              key={r}
              cx="300"
              cy="300"
              r={r}
              fill="none"
              strokeWidth="1"
              className="stroke-brand-200"
            />
          ))}
          <path d="M300 0v600M0 300h600" strokeWidth="1" className="stroke-brand-100" />
        </svg>
        <div className="relative mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.35fr_1fr] lg:items-center lg:px-8">
          <div>
            <p className="mb-4 text-sm font-semibold tracking-wider text-brass uppercase">
              {homeHero.eyebrow}
            </p>
            <h1 id="home-hero-heading" className="text-display">
              {homeHero.headline}
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-ink-soft sm:text-xl">
              {homeHero.subline}
            </p>
            {awaitingApproval ? (
              <p className="mt-6 inline-flex max-w-2xl items-start gap-2.5 rounded-control border border-brass/25 bg-brass-soft px-4 py-3 text-sm leading-relaxed text-brass">
                <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <span>
                  <strong className="font-semibold">{siteFlags.cqcText}.</strong> We are applying
                  for registration with the Care Quality Commission and will open as soon as it is
                  granted.
                </span>
              </p>
            ) : null}
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={homeHero.primaryCta.to} size="lg">
                {homeHero.primaryCta.label}
              </ButtonLink>
              <ButtonLink to={homeHero.secondaryCta.to} variant="secondary" size="lg">
                {homeHero.secondaryCta.label}
              </ButtonLink>
            </div>
          </div>

          <aside
            aria-labelledby="quiz-card-heading"
            className="rounded-card border border-line bg-surface p-7 shadow-card sm:p-8"
          >
            <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <ClipboardCheck aria-hidden="true" className="size-6" />
            </span>
            <h2 id="quiz-card-heading" className="mt-5 text-2xl sm:text-3xl">
              {quizCard.title}
            </h2>
            <p className="mt-3 leading-relaxed text-ink-soft">{quizCard.body}</p>
            <ButtonLink to={quizCard.cta.to} variant="secondary" className="mt-6 w-full sm:w-auto">
              {quizCard.cta.label}
              <ArrowRight aria-hidden="true" />
            </ButtonLink>
          </aside>
        </div>
      </section>

      <Section id="how-it-works" width="wide" title={homeSteps.title} intro={homeSteps.intro}>
        <ol className="grid gap-5 md:grid-cols-3">
          {homeSteps.steps.map((step, i) => (
            <li
              key={step.title}
              className="relative rounded-card border border-line bg-surface p-6"
            >
              <span aria-hidden="true" className="font-serif text-4xl font-semibold text-brand-600">
                {String(i + 1).padStart(2, "0")}
              </span>
              <h3 className="mt-2 text-xl">{step.title}</h3>
              <p className="mt-2 leading-relaxed text-ink-soft">{step.body}</p>
            </li>
          ))}
        </ol>
        <ButtonLink to={homeSteps.link.to} variant="quiet" size="flush" className="mt-6">
          {homeSteps.link.label}
          <ArrowRight aria-hidden="true" />
        </ButtonLink>
      </Section>

      <Section
        id="trust"
        width="wide"
        tone="surface"
        title={trustSection.title}
        intro={trustSection.intro}
      >
        <IconPointGrid points={trustSection.points} />
        <div className="mt-10 flex flex-col gap-6 rounded-card border border-line bg-paper p-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-3">
            <Star aria-hidden="true" className="size-6 fill-brass text-brass" />
            <span className="font-serif text-3xl font-semibold text-ink">{clinic.rating}</span>
            <span className="text-ink-soft">{trustSection.ratingLabel}</span>
          </p>
          <ButtonLink to={trustSection.cta.to} variant="secondary">
            {trustSection.cta.label}
          </ButtonLink>
        </div>
      </Section>

      <CtaPanel id="join" cta={closingCta} />
    </>
  );
}
