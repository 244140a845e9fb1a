import { Check, Link2, RefreshCw } from "lucide-react";
import { type ComponentProps, type ReactNode, useId, useState } from "react";

import { estimate, yearsWithCare } from "./cost.ts";
import { type Selection, parseSelection, selectionToSearch } from "./url-state.ts";
import { Button, buttonVariants } from "../../components/ui/button.tsx";
import { cn } from "../../components/ui/cn.ts";
import { siteFlags } from "../../config/site.ts";
import { formatGBP } from "../../content/money.ts";
import {
  MEMBERSHIP_MONTHLY,
  MEMBERSHIP_YEARLY,
  addOns,
  pricingText,
  treatmentOptions,
} from "../../content/pricing.ts";
import { useHydrated } from "../../lib/island.tsx";
import { Toaster, notify } from "../../lib/toaster.tsx";

const choiceClass =
  "flex min-h-14 cursor-pointer items-start gap-3 rounded-control border border-line bg-surface px-4 py-3.5 transition-colors hover:border-brand-600 hover:bg-brand-50/60 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600";
// scroll-mb keeps a focused choice clear of the sticky phone summary.
const inputClass =
  "mt-0.5 size-5 shrink-0 scroll-mb-28 accent-brand-700 focus-visible:outline-none";

/** The selection lives in the query, so a shared link shows the same; no-JS, a GET form. */
function CostCalculator({ search }: { search: string }) {
  const [selection, setSelection] = useState(() => parseSelection(new URLSearchParams(search)));
  const result = estimate(selection.treatment, selection.addOns);
  const headingId = useId();
  const totals = [
    { label: "Monthly total", per: "a month", amount: result.monthlyTotal, size: "text-4xl" },
    { label: "Yearly total", per: "a year", amount: result.yearlyTotal, size: "text-3xl" },
  ];

  function update(next: Selection) {
    setSelection(next);
    // No new history entry, so Back leaves the page.
    const url = `${window.location.pathname}${selectionToSearch(next)}${window.location.hash}`;
    window.history.replaceState(window.history.state, "", url);
  }

  // Below the fold: rendered when near (decision 132). The form, not the section, so that the
  // toasts stay fixed to the viewport; 0.5rem of padding, taken back by the margin, keeps the
  // choices' focus rings inside the box that containment clips to.
  return (
    <>
      <form
        method="get"
        action="/pricing"
        onSubmit={(event) => event.preventDefault()}
        aria-labelledby={headingId}
        className="-m-2 grid gap-8 p-2 render-when-near [--render-estimate:2400px] lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10 lg:[--render-estimate:850px]"
      >
        <h3 id={headingId} className="sr-only">
          Treatment cost calculator
        </h3>
        <div className="space-y-8">
          <fieldset>
            <legend className="font-serif text-2xl text-ink">1. Choose a treatment</legend>
            <div className="mt-4 grid gap-2.5 sm:grid-cols-2">
              {treatmentOptions.map((t) => (
                <Choice
                  key={t.key}
                  input={{
                    type: "radio",
                    name: "treatment",
                    value: t.key,
                    checked: selection.treatment === t.key,
                    onChange: () => update({ ...selection, treatment: t.key }),
                  }}
                  text={[t.name, t.form, formatGBP(t.monthlyPrice)]}
                />
              ))}
            </div>
          </fieldset>

          <fieldset>
            <legend className="font-serif text-2xl text-ink">2. Add-ons, if advised</legend>
            <p className="mt-1 text-sm text-muted">
              Optional medicines a clinician may add. Tick any you want to include.
            </p>
            <div className="mt-4 grid gap-2.5 sm:grid-cols-2">
              {addOns.map((a) => {
                const checked = selection.addOns.includes(a.key);
                const addOnKeys = selection.addOns.filter((k) => k !== a.key);
                return (
                  <Choice
                    key={a.key}
                    input={{
                      type: "checkbox",
                      name: "addons",
                      value: a.key,
                      checked,
                      onChange: () =>
                        update({
                          ...selection,
                          addOns: checked ? addOnKeys : [...addOnKeys, a.key],
                        }),
                    }}
                    text={[a.name, a.purpose, <>+{formatGBP(a.monthlyPrice)}</>]}
                  />
                );
              })}
            </div>
          </fieldset>

          {/* Phones: totals in sight while choosing; screen readers hear the live region below. */}
          <div
            aria-hidden="true"
            data-testid="sticky-estimate"
            className="sticky bottom-[calc(var(--consent-reserve,0px)+0.75rem)] z-10 flex items-center justify-between gap-4 rounded-card bg-brand-900 px-5 py-3 text-white shadow-card lg:hidden"
          >
            <span className="text-sm text-brand-100">Estimate</span>
            <span className="flex flex-wrap justify-end gap-x-4 font-serif text-lg font-semibold tabular-nums">
              {totals.map((total) => (
                <span key={total.per} className="whitespace-nowrap">
                  {formatGBP(total.amount)}
                  <span className="font-sans text-sm font-normal text-brand-100">{` ${total.per}`}</span>
                </span>
              ))}
            </span>
          </div>
        </div>

        <aside
          aria-label="Your estimate"
          className="self-start rounded-card border border-brand-800 bg-brand-900 p-6 text-white shadow-card lg:sticky lg:top-[calc(var(--site-top)+var(--spacing-header)+1.5rem)]"
        >
          <p className="text-sm font-semibold tracking-wider text-brand-200 uppercase">
            Your estimate
          </p>
          <div role="status" aria-live="polite" aria-atomic="true" className="mt-4 space-y-4">
            {totals.map((total, i) => (
              <p
                key={total.per}
                className={cn(
                  "flex items-baseline justify-between gap-3",
                  i > 0 && "border-t border-white/15 pt-4",
                )}
              >
                <span className="text-brand-100">
                  {total.label}
                  <span className="block text-xs">{pricingText.totalsCover}</span>
                </span>{" "}
                <span className={`font-serif ${total.size} font-semibold tabular-nums`}>
                  {formatGBP(total.amount)}
                </span>
              </p>
            ))}
          </div>
          <div className="mt-4">
            <div className="rounded-control bg-white/10 px-4 py-3">
              <p className="text-sm font-semibold text-white">{pricingText.withCareTitle}</p>
              <dl className="mt-2 space-y-1 text-sm">
                {yearsWithCare(result.treatmentMonthly + result.addOnsMonthly).map((year) => (
                  <div key={year.id} className="flex items-baseline justify-between gap-3">
                    <dt className="text-brand-100">{year.title}</dt>
                    <dd className="font-serif text-xl font-semibold tabular-nums">
                      {formatGBP(year.total)}
                    </dd>
                  </div>
                ))}
              </dl>
              <p className="mt-2 text-xs leading-relaxed text-brand-100">
                {pricingText.withCareNote}{" "}
                <a
                  href="#breakdown"
                  className="font-semibold text-white underline underline-offset-2"
                >
                  See the cost breakdown
                </a>
              </p>
            </div>
          </div>

          <dl className="mt-5 space-y-2 border-t border-white/15 pt-4 text-sm">
            {[
              { name: result.treatment.name, monthlyPrice: result.treatmentMonthly },
              ...result.addOns,
              { name: "Membership", monthlyPrice: MEMBERSHIP_MONTHLY },
            ].map((line) => (
              <div key={line.name} className="flex justify-between gap-3">
                <dt className="text-brand-100">{line.name}</dt>
                <dd className="tabular-nums">{formatGBP(line.monthlyPrice)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-xs leading-relaxed text-brand-100">
            Yearly: treatment {formatGBP(result.treatment.yearlyTotal)} + add-ons{" "}
            {formatGBP(result.addOnsMonthly * 12)} + membership {formatGBP(MEMBERSHIP_YEARLY)}.{" "}
            {pricingText.calculatorNote} {pricingText.rangesNote}
            {siteFlags.showPricing ? null : " Prices will be confirmed at launch."}
          </p>

          <EstimateActions />
          <p className="mt-3 flex items-center gap-2 text-xs text-brand-100">
            <Check aria-hidden="true" className="size-4 shrink-0" />
            Your choices are kept in the page address, so you can share or bookmark them.
          </p>
        </aside>
      </form>
      <Toaster />
    </>
  );
}

/**
 * The buttons that change once hydrated, in a component of their own: hydrating renders
 * twice (server snapshot, then client), and only this part needs the second render.
 */
function EstimateActions() {
  const hydrated = useHydrated();

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify.success("Link to this estimate copied.");
    } catch (error) {
      console.error(error);
      notify.error("Sorry, the link could not be copied. You can copy it from the address bar.");
    }
  }

  return (
    <>
      {hydrated ? (
        <Button
          type="button"
          variant="outlineInverse"
          size="sm"
          className="mt-5 w-full"
          onClick={() => void copyLink()}
        >
          <Link2 aria-hidden="true" />
          Copy link to this estimate
        </Button>
      ) : null}
      {/* Hydrated, it steps back but stays: a form needs a submit button (WCAG H32). */}
      <button
        type="submit"
        className={
          hydrated
            ? "mt-3 inline-flex min-h-8 items-center gap-2 text-sm text-brand-100 underline underline-offset-2 hover:text-white [&_svg]:size-4"
            : buttonVariants({ variant: "inverse", size: "sm", className: "mt-5 w-full" })
        }
      >
        <RefreshCw aria-hidden="true" />
        Update estimate
      </button>
    </>
  );
}

/** A treatment or an add-on: its name, what it is, and its price a month. */
function Choice({ input, text }: { input: ComponentProps<"input">; text: ReactNode[] }) {
  const [name, detail, price] = text;
  return (
    <label className={choiceClass}>
      <input {...input} className={cn(inputClass, input.type === "checkbox" && "rounded")} />
      <span className="min-w-0 flex-1 font-semibold text-ink">
        {name}
        <span className="mt-0.5 block text-sm font-normal text-muted">{detail}</span>
        <span className="mt-1.5 block text-sm font-medium text-brand-800 tabular-nums">
          {price} a month
        </span>
      </span>
    </label>
  );
}

export const pricingIsland = { name: "pricing", Component: CostCalculator };
