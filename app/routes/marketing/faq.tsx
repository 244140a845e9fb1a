import { MessageCircle } from "lucide-react";

import { MedicalNote } from "../../components/content/notices.tsx";
import { ReviewLine } from "../../components/content/review-line.tsx";
import { SingleAccordion } from "../../components/content/single-accordion.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { faqContact, faqGroups, faqIntro } from "../../content/faq.ts";
import { pages } from "../../content/pages.ts";
import { faqPageJsonLd, pageMeta } from "../../lib/seo.ts";

export const meta = () =>
  pageMeta("/faq", [faqPageJsonLd(faqGroups.flatMap((group) => group.items))]);

export default function Faq() {
  return (
    <>
      <PageHero eyebrow="TRT" title={pages["/faq"].heading}>
        <p>{faqIntro}</p>
        <nav aria-label="Question groups" className="mt-6">
          <ul className="flex flex-wrap gap-2">
            {faqGroups.map((group) => (
              <li key={group.id}>
                <a
                  href={`#${group.id}`}
                  className="inline-flex min-h-11 items-center rounded-full border border-line bg-surface px-4 text-base font-medium text-brand-800 hover:border-brand-600"
                >
                  {group.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <ReviewLine page="/faq" />
      </PageHero>

      {faqGroups.map((group, i) => (
        <Section
          key={group.id}
          id={group.id}
          title={group.title}
          tone={i % 2 === 1 ? "surface" : "plain"}
          padding="none"
          className="py-12 sm:py-14"
        >
          <SingleAccordion
            className="max-w-3xl"
            items={group.items.map((item) => ({
              id: item.id,
              title: item.question,
              content: (
                <div className="space-y-3">
                  {item.answer.map((text) => (
                    <p key={text}>{text}</p>
                  ))}
                </div>
              ),
            }))}
          />
        </Section>
      ))}

      <Section id="faq-contact" tone="sand">
        <div className="flex max-w-3xl flex-col items-start gap-5 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex gap-4">
            <MessageCircle aria-hidden="true" className="mt-1 size-7 shrink-0 text-brand-700" />
            <div>
              <h2 className="text-2xl">{faqContact.title}</h2>
              <p className="mt-1 text-ink-soft">{faqContact.body}</p>
            </div>
          </div>
          <ButtonLink to={faqContact.cta.to} className="shrink-0">
            {faqContact.cta.label}
          </ButtonLink>
        </div>
        <MedicalNote className="mt-10 max-w-3xl" />
      </Section>
    </>
  );
}
