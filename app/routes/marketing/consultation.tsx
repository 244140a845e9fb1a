import { CalendarX2, ClipboardList, Droplet, FlaskConical, Sun } from "lucide-react";

import { MedicalNote } from "../../components/content/notices.tsx";
import { ReviewLine } from "../../components/content/review-line.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { siteFlags } from "../../config/site.ts";
import {
  bookingOpen,
  bookingPlaceholder,
  consultationIntro,
  consultationSteps,
  requirements,
} from "../../content/consultation.ts";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/consultation");

const requirementIcons = [Droplet, Sun, FlaskConical, ClipboardList];

export default function Consultation() {
  const booking = siteFlags.showBooking ? bookingOpen : bookingPlaceholder;
  return (
    <>
      <PageHero eyebrow="Services" title={pages["/consultation"].heading}>
        <p>{consultationIntro}</p>
        <ReviewLine page="/consultation" />
      </PageHero>

      <Section id="requirements" title={requirements.title} intro={requirements.intro}>
        <ol className="grid gap-5 sm:grid-cols-2">
          {requirements.items.map((item, i) => {
            const Icon = requirementIcons[i] ?? ClipboardList;
            return (
              <li
                key={item.title}
                className="flex gap-4 rounded-card border border-line bg-surface p-6 shadow-card"
              >
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <h3 className="text-xl">{item.title}</h3>
                  <p className="mt-1.5 leading-relaxed text-ink-soft">{item.body}</p>
                </div>
              </li>
            );
          })}
        </ol>
        <p className="mt-6 max-w-3xl leading-relaxed text-ink-soft">{requirements.note}</p>
      </Section>

      <Section id="during" tone="surface" title={consultationSteps.title}>
        <ol className="max-w-3xl space-y-4">
          {consultationSteps.items.map((text, i) => (
            <li key={text} className="flex gap-4">
              <span
                aria-hidden="true"
                className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white"
              >
                {i + 1}
              </span>
              <p className="pt-0.5 text-lg leading-relaxed text-ink-soft">{text}</p>
            </li>
          ))}
        </ol>
        <MedicalNote className="mt-10 max-w-3xl" />
      </Section>

      <Section id="booking">
        <div className="rounded-card border border-dashed border-brand-200 bg-brand-50/60 p-8 text-center sm:p-12">
          <CalendarX2 aria-hidden="true" className="mx-auto size-10 text-brand-700" />
          <h2 className="mt-4 text-3xl">{booking.title}</h2>
          <p className="mx-auto mt-3 max-w-xl text-lg leading-relaxed text-ink-soft">
            {booking.body}
          </p>
          <ButtonLink to={booking.cta.to} size="lg" className="mt-8">
            {booking.cta.label}
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}
