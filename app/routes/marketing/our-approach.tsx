import { CheckList } from "../../components/content/check-list.tsx";
import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { IconPointGrid } from "../../components/content/icon-point-grid.tsx";
import {
  MonitoringTimeline,
  ProcessIllustration,
} from "../../components/content/illustrations.tsx";
import { MedicalNote } from "../../components/content/notices.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import {
  approachCta,
  approachIntro,
  clinicalFoundation,
  expectedOutcomes,
  ongoingCare,
  principles,
  processSteps,
} from "../../content/approach.ts";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/our-approach");

export default function OurApproach() {
  return (
    <>
      <PageHero eyebrow="About us" title={pages["/our-approach"].heading}>
        <p>{approachIntro}</p>
      </PageHero>

      <Section id="principles" title={principles.title}>
        <IconPointGrid points={principles.items} columns={2} />
      </Section>

      <Section id="process" tone="surface" title={processSteps.title} intro={processSteps.intro}>
        <ProcessIllustration
          steps={processSteps.steps}
          captions={["Tests and consultation", "Your personal plan", "Monitoring and reviews"]}
        />
        <ol className="mt-8 grid gap-5 md:grid-cols-3">
          {processSteps.steps.map((step) => (
            <li key={step.number} className="rounded-card border border-line bg-paper p-6">
              <p className="text-sm font-semibold tracking-wider text-brass uppercase">
                Step {step.number}
              </p>
              <h3 className="mt-2 text-xl">{step.title}</h3>
              <p className="mt-3 leading-relaxed text-ink-soft">{step.summary}</p>
              <CheckList items={step.details} className="mt-4 text-sm" />
            </li>
          ))}
        </ol>
      </Section>

      <Section id={ongoingCare.id} title={ongoingCare.title} intro={ongoingCare.intro}>
        <MonitoringTimeline milestones={ongoingCare.milestones} after="Then twice a year" />
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {ongoingCare.milestones.map((m) => (
            <li key={m.when} className="rounded-card border border-line bg-surface p-5">
              <h3 className="text-xl">{m.when}</h3>
              <p className="mt-1 text-sm font-semibold text-brand-700">{m.title}</p>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">{m.body}</p>
            </li>
          ))}
        </ul>
        <p className="mt-6 max-w-3xl leading-relaxed text-ink-soft">{ongoingCare.afterwards}</p>
      </Section>

      <Section id="clinical-foundation" tone="sand" title={clinicalFoundation.title}>
        <div className="max-w-3xl space-y-4 text-lg leading-relaxed text-ink-soft">
          {clinicalFoundation.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      </Section>

      <Section id="outcomes" title={expectedOutcomes.title} intro={expectedOutcomes.intro}>
        <dl className="grid gap-5 md:grid-cols-3">
          {expectedOutcomes.items.map((item) => (
            <div key={item.when} className="rounded-card border border-line bg-surface p-6">
              <dt className="font-serif text-2xl font-semibold text-brand-800">{item.when}</dt>
              <dd className="mt-2 leading-relaxed text-ink-soft">{item.body}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-6 max-w-3xl text-ink-soft">{expectedOutcomes.caveat}</p>
        <MedicalNote className="mt-8" />
      </Section>

      <CtaPanel id="approach-cta" cta={approachCta} />
    </>
  );
}
