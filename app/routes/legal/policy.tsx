import { CalendarDays, FileText, ShieldAlert } from "lucide-react";
import { useMatches } from "react-router";

import type { Route } from "./+types/policy";
import { ATTRIBUTION_STORAGE_KEY } from "../../../contract/registrations.ts";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { accessibilityStatement } from "../../content/policies/accessibility.ts";
import { cookiePolicy } from "../../content/policies/cookies.ts";
import type { PolicyBlock } from "../../content/policies/policy-types.ts";
import { privacyPolicy } from "../../content/policies/privacy.ts";
import { refundPolicy } from "../../content/policies/refund.ts";
import { shippingPolicy } from "../../content/policies/shipping.ts";
import { termsOfService } from "../../content/policies/terms.ts";
import { CONSENT_STORAGE_KEY } from "../../features/consent/consent-record.ts";
import { pageMeta } from "../../lib/seo.ts";

/** Every policy page, by its path; app/routes.ts gives each route this path as its id. */
const policies = {
  "/privacy-policy": privacyPolicy,
  "/terms-of-service": termsOfService,
  "/cookie-policy": cookiePolicy({
    consentStorageKey: CONSENT_STORAGE_KEY,
    visitSourceStorageKey: ATTRIBUTION_STORAGE_KEY,
  }),
  "/shipping-policy": shippingPolicy,
  "/refund-policy": refundPolicy,
  "/accessibility": accessibilityStatement,
};

type PolicyPath = keyof typeof policies;

// The route's id, not the URL: matching ignores case and a trailing slash.
export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[matches.length - 1]?.id as PolicyPath);

export default function Policy() {
  const path = useMatches().at(-1)?.id as PolicyPath;
  const policy = policies[path];
  return (
    <>
      <PageHero eyebrow="Policy" title={pages[path].heading}>
        {/* A dl's groups may hold only dt and dd: each icon sits inside its term. */}
        <dl className="flex flex-wrap gap-x-6 gap-y-2 text-base text-muted">
          {(
            [
              [CalendarDays, "Last updated:", policy.lastUpdated],
              [CalendarDays, "Effective:", policy.effective],
              [FileText, "Version", policy.version],
            ] as const
          ).map(([Icon, term, value]) =>
            value ? (
              <div key={term} className="flex items-center gap-2">
                <dt className="flex items-center gap-2">
                  <Icon aria-hidden="true" className="size-4 text-brand-700" />
                  {term}
                </dt>
                <dd className="font-semibold text-ink-soft">{value}</dd>
              </div>
            ) : null,
          )}
        </dl>
      </PageHero>

      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[14rem_1fr] lg:gap-14 lg:px-8">
        <nav
          aria-label="On this page"
          className="lg:sticky lg:top-[calc(var(--site-top)+var(--spacing-header)+2rem)] lg:self-start"
        >
          <h2 className="font-sans text-sm font-semibold tracking-wider text-muted uppercase">
            On this page
          </h2>
          <ol className="mt-3 space-y-1 border-l border-line text-sm">
            {policy.sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="-ml-px inline-flex min-h-9 items-center border-l-2 border-transparent py-1 pl-4 text-ink-soft hover:border-brand-600 hover:text-brand-800"
                >
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <article className="max-w-3xl min-w-0">
          {policy.notice ? (
            <div
              role="note"
              className="mb-8 flex gap-3 rounded-card border border-warning/30 bg-warning-bg px-5 py-4 leading-relaxed text-warning"
            >
              <ShieldAlert aria-hidden="true" className="mt-1 size-5 shrink-0" />
              <p>{policy.notice}</p>
            </div>
          ) : null}
          <div className="space-y-4 text-lg leading-relaxed text-ink-soft">
            {policy.intro.map((text) => (
              <p key={text}>{text}</p>
            ))}
          </div>
          {policy.sections.map((section) => (
            <section key={section.id} aria-labelledby={section.id} className="mt-12">
              <h2 id={section.id} className="text-2xl sm:text-3xl">
                {section.heading}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-ink-soft">
                {section.blocks.map((block, i) => (
                  <Block key={i} block={block} />
                ))}
              </div>
            </section>
          ))}
        </article>
      </div>
    </>
  );
}

function Block({ block }: { block: PolicyBlock }) {
  switch (block.kind) {
    case "paragraph":
      return <p>{block.text}</p>;
    case "list":
      return (
        <ul className="list-disc space-y-2 pl-6 marker:text-brand-600">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
    case "table":
      return (
        <>
          {/* Phones: one card per row, so no column (often the figure) falls off-screen. */}
          <ul aria-label={block.caption} className="space-y-3 sm:hidden">
            {block.rows.map((row) => (
              <li key={row.join("|")} className="rounded-card border border-line bg-surface p-4">
                <p className="font-semibold text-ink">{row[0]}</p>
                <dl className="mt-2 space-y-1.5 text-base">
                  {row.slice(1).map((cell, i) => (
                    <div key={i}>
                      <dt className="text-sm text-muted">{block.head[i + 1]}</dt>
                      <dd>{cell}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-hidden rounded-card border border-line bg-surface sm:block">
            <table className="w-full border-collapse text-left text-base">
              <caption className="sr-only">{block.caption}</caption>
              <thead className="bg-sand/60 text-ink">
                <tr>
                  {block.head.map((h) => (
                    <th key={h} scope="col" className="px-4 py-3 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {block.rows.map((row) => (
                  <tr key={row.join("|")}>
                    {row.map((cell, i) => {
                      const Cell = i === 0 ? "th" : "td";
                      return (
                        <Cell
                          key={i}
                          scope={i === 0 ? "row" : undefined}
                          className={
                            i === 0
                              ? "px-4 py-3 align-top font-semibold text-ink"
                              : "px-4 py-3 align-top"
                          }
                        >
                          {cell}
                        </Cell>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      );
  }
}
