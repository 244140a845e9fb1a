import { ArrowRight, Mail, Timer } from "lucide-react";
import { useSearchParams } from "react-router";

import { ApprovalNotice } from "../../components/content/notices.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { siteFlags } from "../../config/site.ts";
import { pages } from "../../content/pages.ts";
import { otherCosts, pricingText } from "../../content/pricing.ts";
import { pricingIsland } from "../../features/pricing/cost-calculator.tsx";
import {
  ComparisonTable,
  CostBreakdown,
  YearlyCostChart,
} from "../../features/pricing/figures.tsx";
import { Island } from "../../lib/island.tsx";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/pricing");

export default function Page() {
  // The server renders the estimate of a shared link (?treatment=...&addons=...).
  const [searchParams] = useSearchParams();
  return (
    <>
      <PageHero eyebrow="Costs, in full" title={pages["/pricing"].heading}>
        <p>{pricingText.lead}</p>
        <p className="mt-4 flex items-start gap-2 text-base">
          <Timer aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
          <span>
            Speed to treatment: <strong className="text-ink">6-8 weeks</strong> with us, against up
            to 12 months on the NHS.
          </span>
        </p>
      </PageHero>

      {siteFlags.showPricing ? null : (
        <div className="mx-auto max-w-5xl px-4 pt-8 sm:px-6 lg:px-8">
          <ApprovalNotice>
            <p>
              <strong>Indicative prices.</strong> {pricingText.indicative}
            </p>
          </ApprovalNotice>
        </div>
      )}

      <Section
        id="compare"
        title="How we compare"
        intro="The same questions asked of us, of other private clinics and of the NHS."
      >
        <ComparisonTable />
        <p className="mt-4 max-w-3xl text-sm text-muted">
          Other clinics&apos; figures are broad indicative ranges, not quotes from any named
          provider; prices vary, so check with any clinic you consider.
        </p>
        <div className="mt-10">
          <YearlyCostChart />
        </div>
      </Section>

      <Section
        id="calculator"
        tone="surface"
        width="wide"
        title="Treatment cost calculator"
        intro={pricingText.calculatorIntro}
        className="border-y border-line"
      >
        <Island island={pricingIsland} props={{ search: searchParams.toString() }} />
      </Section>

      {/* Below the fold at every width: rendered when near (decision 132). Not the
          calculator: its toasts are fixed to the viewport, which containment would break. */}
      <Section
        id="breakdown"
        title="Cost breakdown"
        intro={pricingText.breakdownIntro}
        width="wide"
        className="render-when-near [--render-estimate:3000px] lg:[--render-estimate:1500px]"
      >
        <CostBreakdown />
      </Section>

      <Section
        id="other-costs"
        tone="sand"
        title="Other costs"
        intro={pricingText.otherCostsIntro}
        className="render-when-near [--render-estimate:1000px] lg:[--render-estimate:600px]"
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {otherCosts.map((c) => (
            <li key={c.service} className="rounded-card border border-line bg-surface p-5">
              <p className="flex items-baseline justify-between gap-3">
                <span className="font-semibold text-ink">{c.service}</span>
                <span className="font-serif text-xl font-semibold whitespace-nowrap text-brand-900">
                  {c.price}
                </span>
              </p>
              <p className="mt-2 text-sm leading-relaxed text-ink-soft">{c.description}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="next-steps"
        tone="brand"
        title="Ready when we open"
        className="render-when-near [--render-estimate:450px] lg:[--render-estimate:400px]"
      >
        <p className="max-w-2xl text-lg leading-relaxed text-brand-100">
          Register your interest and we will tell you as soon as consultations open. Questions about
          costs? Our team is happy to help.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/register-interest" variant="inverse" size="lg">
            Register Your Interest
            <ArrowRight aria-hidden="true" />
          </ButtonLink>
          <ButtonLink to="/contact" variant="outlineInverse" size="lg">
            <Mail aria-hidden="true" />
            Contact Us
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}
