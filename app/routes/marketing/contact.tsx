import { Clock, type LucideIcon, Mail, MapPin, PhoneCall, Siren } from "lucide-react";
import type { ReactNode } from "react";

import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { clinic } from "../../content/clinic.ts";
import { contactCta, contactDetails, contactIntro, urgentAdvice } from "../../content/contact.ts";
import { pages } from "../../content/pages.ts";
import { medicalClinicJsonLd, pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/contact", [medicalClinicJsonLd()]);

export default function Contact() {
  const { address } = clinic;
  return (
    <>
      <PageHero eyebrow="Get in touch" title={pages["/contact"].heading}>
        <p>{contactIntro}</p>
      </PageHero>

      <Section id="details" title={contactDetails.title}>
        <div className="grid gap-6 lg:grid-cols-[1.4fr_1fr]">
          <dl className="grid gap-5 rounded-card border border-line bg-surface p-6 shadow-card sm:p-8">
            <div className="relative pl-10">
              <Term icon={MapPin}>{contactDetails.addressLabel}</Term>
              <dd className="mt-1 text-lg text-ink">
                <address className="not-italic">
                  {clinic.name}
                  <br />
                  {address.street}
                  <br />
                  {address.locality} {address.postcode}
                  <br />
                  {address.country}
                </address>
              </dd>
            </div>
            <div className="relative pl-10">
              <Term icon={PhoneCall}>{contactDetails.phoneLabel}</Term>
              <dd className="mt-1 text-lg">
                <a
                  href={clinic.phone.href}
                  className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
                >
                  {clinic.phone.display}
                </a>
              </dd>
            </div>
            <div className="relative pl-10">
              <Term icon={Mail}>{contactDetails.emailLabel}</Term>
              <dd className="mt-1 text-lg">
                <a
                  href={`mailto:${clinic.email}`}
                  className="inline-flex min-h-11 items-center font-semibold break-all text-brand-800 underline underline-offset-4"
                >
                  {clinic.email}
                </a>
                <p className="text-sm text-muted">{contactDetails.responseNote}</p>
              </dd>
            </div>
          </dl>

          <section
            aria-labelledby="hours-heading"
            className="rounded-card border border-line bg-surface p-6 shadow-card sm:p-8"
          >
            <h3 id="hours-heading" className="flex items-center gap-3 text-2xl">
              <Clock aria-hidden="true" className="size-6 text-brand-700" />
              {contactDetails.hoursTitle}
            </h3>
            <dl className="mt-5 divide-y divide-line">
              {clinic.openingHours.map((row) => (
                <div key={row.days} className="flex flex-wrap justify-between gap-2 py-3">
                  <dt className="text-ink-soft">{row.days}</dt>
                  <dd className="font-semibold text-ink">{row.hours}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-sm text-muted">Weekends closed. UK bank holidays closed.</p>
          </section>
        </div>
      </Section>

      <Section id="urgent" padding="none" className="pb-14 sm:pb-20">
        <div
          role="note"
          aria-labelledby="urgent-heading"
          className="flex gap-4 rounded-card border border-danger/25 bg-surface p-6 sm:p-8"
        >
          <Siren aria-hidden="true" className="mt-1 size-6 shrink-0 text-danger" />
          <div>
            <h2 id="urgent-heading" className="text-2xl">
              {urgentAdvice.title}
            </h2>
            <p className="mt-2 leading-relaxed text-ink-soft">{urgentAdvice.body}</p>
          </div>
        </div>
      </Section>

      <CtaPanel id="contact-cta" cta={contactCta} />
    </>
  );
}

/** A contact detail's term, its icon hanging in the item's left padding. */
function Term({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <dt className="text-sm font-semibold text-muted">
      <Icon aria-hidden="true" className="absolute top-0.5 left-0 size-6 text-brand-700" />
      {children}
    </dt>
  );
}
