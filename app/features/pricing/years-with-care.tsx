import { yearsWithCare } from "./cost.ts";
import { formatGBP } from "../../content/money.ts";
import { pricingText } from "../../content/pricing.ts";

/**
 * Beside the calculator's totals: the first and second year with the consultation, tests,
 * monitoring and membership of the worked example, for the treatment chosen, linking to
 * the breakdown that itemises them.
 */
export function YearsWithCare({ medicationMonthly }: { medicationMonthly: number }) {
  const years = yearsWithCare(medicationMonthly);
  return (
    <div className="rounded-control bg-white/10 px-4 py-3">
      <p className="text-sm font-semibold text-white">{pricingText.withCareTitle}</p>
      <dl className="mt-2 space-y-1 text-sm">
        {years.map((year) => (
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
        <a href="#breakdown" className="font-semibold text-white underline underline-offset-2">
          See the cost breakdown
        </a>
      </p>
    </div>
  );
}
