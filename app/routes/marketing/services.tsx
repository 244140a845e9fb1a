import { ArrowRight, Clock } from "lucide-react";

import { CheckList } from "../../components/content/check-list.tsx";
import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { ApprovalNotice, MedicalNote } from "../../components/content/notices.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import { services, servicesCta, servicesIntro, speedToTreatment } from "../../content/services.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/services");

export default function Services() {
  return (
    <>
      <PageHero eyebrow="What we offer" title={pages["/services"].heading}>
        <p>{servicesIntro}</p>
      </PageHero>

      <Section id="services-list" padding="none" className="pt-10 pb-14 sm:pt-14 sm:pb-20">
        <ApprovalNotice className="mb-10">
          <p>
            <strong className="font-semibold">Our services await approval.</strong> We will offer
            them once we are registered with the Care Quality Commission (CQC). Until then we cannot
            take bookings or provide consultations, tests or treatment.
          </p>
        </ApprovalNotice>
        <h2 className="sr-only">Services</h2>
        <ul className="grid gap-6 md:grid-cols-2">
          {services.map(({ id, icon: Icon, title, summary, includes, link }) => (
            <li key={id}>
              <article
                aria-labelledby={`${id}-title`}
                className="flex h-full flex-col rounded-card border border-line bg-surface p-6 shadow-card sm:p-8"
              >
                <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <h3 id={`${id}-title`} className="mt-5 text-2xl">
                  {title}
                </h3>
                <p className="mt-3 leading-relaxed text-ink-soft">{summary}</p>
                <CheckList items={includes} className="mt-5 mb-6" />
                <ButtonLink
                  to={link.to}
                  variant="quiet"
                  size="flush"
                  className="mt-auto self-start"
                >
                  {link.label}
                  <ArrowRight aria-hidden="true" />
                </ButtonLink>
              </article>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="speed" tone="surface" title={speedToTreatment.title}>
        <dl className="grid gap-6 md:grid-cols-2">
          <div className="rounded-card border border-brand-200 bg-brand-50 p-6 sm:p-8">
            <dt className="text-ink-soft">{speedToTreatment.ours.label}</dt>
            <dd className="mt-2 flex items-center gap-3 font-serif text-4xl font-semibold text-brand-800">
              <Clock aria-hidden="true" className="size-7" />
              {speedToTreatment.ours.figure}
            </dd>
          </div>
          <div className="rounded-card border border-line bg-paper p-6 sm:p-8">
            <dt className="text-ink-soft">{speedToTreatment.nhs.label}</dt>
            <dd className="mt-2 font-serif text-4xl font-semibold text-muted">
              {speedToTreatment.nhs.figure}
            </dd>
          </div>
        </dl>
        <p className="mt-5 max-w-3xl text-sm text-muted">{speedToTreatment.note}</p>
        <MedicalNote className="mt-10" />
      </Section>

      <CtaPanel id="services-cta" cta={servicesCta} />
    </>
  );
}
