import { type ReactNode, useId } from "react";

import { lineAmount, sumLines } from "./cost.ts";
import { Card } from "../../components/ui/card.tsx";
import { clinic } from "../../content/clinic.ts";
import { formatGBP } from "../../content/money.ts";
import { comparisonRows, costYears, keyPrices, yearlyCostChart } from "../../content/pricing.ts";

export function ComparisonTable() {
  const captionId = useId();
  return (
    <div>
      {/* A scrollable region must be reachable by keyboard to scroll it (WCAG 2.1.1). */}
      <div
        role="region"
        aria-labelledby={captionId}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="overflow-x-auto rounded-card border border-line bg-surface shadow-card"
      >
        <table className="w-full min-w-[34rem] border-collapse text-left text-[0.95rem]">
          <caption id={captionId} className="sr-only">
            How {clinic.name} compares with other private clinics and the NHS
          </caption>
          <thead>
            <tr className="border-b border-line bg-sand">
              <th
                scope="col"
                className="sticky left-0 w-32 bg-sand px-4 py-3.5 font-semibold sm:w-[26%]"
              >
                <span className="sr-only">What we compare</span>
              </th>
              <th scope="col" className="bg-brand-100 px-4 py-3.5 font-semibold text-brand-900">
                {clinic.name}
              </th>
              <th scope="col" className="px-4 py-3.5 font-semibold">
                Other private clinics
              </th>
              <th scope="col" className="px-4 py-3.5 font-semibold">
                NHS
              </th>
            </tr>
          </thead>
          <tbody>
            {comparisonRows.map((row) => (
              <tr key={row.category} className="border-b border-line last:border-b-0">
                <th
                  scope="row"
                  className="sticky left-0 bg-surface px-4 py-4 align-top text-sm font-semibold text-ink sm:text-[0.95rem]"
                >
                  {row.category}
                </th>
                <td className="bg-brand-50/70 px-4 py-4 align-top font-medium text-brand-900">
                  {row.ourClinic}
                </td>
                <td className="px-4 py-4 align-top text-ink-soft">{row.otherClinics}</td>
                <td className="px-4 py-4 align-top text-ink-soft">{row.nhs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-sm text-muted sm:hidden">
        Scroll the table sideways to see every column.
      </p>
    </div>
  );
}

const ROW = 54;
const BAR_Y = 22;
const BAR_H = 16;
const BAR_SPAN = 68; // per cent: room for the figure after the longest bar
const SCALE_MAX = 2500;

const pct = (amount: number) => (amount / SCALE_MAX) * BAR_SPAN;

/** No viewBox: bars in percentages, text in pixels, so lettering reads at 390 and 1280 px. */
export function YearlyCostChart() {
  const id = useId();
  const { ours, otherClinics, nhs } = yearlyCostChart;
  const rangeText = `${formatGBP(otherClinics.min)} to ${formatGBP(otherClinics.max)}`;
  const description = [
    ...ours.map((o) => `${o.label}: ${formatGBP(o.amount)}`),
    `${otherClinics.label}: about ${rangeText} a year`,
    `${nhs.label}: ${nhs.note}`,
  ].join(". ");
  const tableRows: [string, ReactNode][] = [
    ...ours.map((o): [string, ReactNode] => [o.label, formatGBP(o.amount)]),
    [otherClinics.label, <>About {rangeText}</>],
    [nhs.label, nhs.note],
  ];

  return (
    <figure className="min-w-0 rounded-card border border-line bg-surface p-5 shadow-card sm:p-7">
      <figcaption className="font-serif text-xl text-ink sm:text-2xl">
        Cost per year at a glance
      </figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        width="100%"
        height={ROW * 4}
        className="mt-5 block max-w-2xl overflow-visible text-[13px] sm:text-sm"
      >
        <title id={`${id}-title`}>Yearly cost compared</title>
        <desc id={`${id}-desc`}>{description}.</desc>
        {ours.map((o, i) => (
          <Row key={o.label} index={i} label={o.label}>
            <rect
              y={BAR_Y}
              width={`${pct(o.amount)}%`}
              height={BAR_H}
              rx={3}
              fill={i === 0 ? "#1f5450" : "#2b6b66"}
            />
            <text x={`${pct(o.amount)}%`} dx={8} y={BAR_Y + 13} fill="#15252c">
              {formatGBP(o.amount)}
            </text>
          </Row>
        ))}
        <Row index={2} label={<>{otherClinics.label}, typical range</>}>
          <rect
            x={`${pct(otherClinics.min)}%`}
            y={BAR_Y + 0.5}
            width={`${pct(otherClinics.max) - pct(otherClinics.min)}%`}
            height={BAR_H - 1}
            rx={3}
            fill="#f3ead9"
            stroke="#7f5a24"
            strokeDasharray="4 3"
          />
          <line
            x1={`${pct(otherClinics.min)}%`}
            x2={`${pct(otherClinics.min)}%`}
            y1={BAR_Y - 3}
            y2={BAR_Y + BAR_H + 3}
            stroke="#7f5a24"
            strokeWidth={2}
          />
          <text x={`${pct(otherClinics.max)}%`} dx={8} y={BAR_Y + 13} fill="#15252c">
            to {formatGBP(otherClinics.max)}
          </text>
          <text
            x={`${pct(otherClinics.min)}%`}
            dx={-6}
            y={BAR_Y + 13}
            textAnchor="end"
            fill="#56656c"
          >
            {formatGBP(otherClinics.min)}
          </text>
        </Row>
        <Row index={3} label={nhs.label}>
          <rect y={BAR_Y} width={3} height={BAR_H} fill="#15252c" />
          <text x={12} y={BAR_Y + 13} fill="#15252c">
            {formatGBP(nhs.amount)} for care
          </text>
        </Row>
      </svg>
      <p className="mt-3 text-sm text-muted">
        NHS prescription charges may apply. Our figures are the worked example below.
      </p>
      <details className="mt-2 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-800 underline underline-offset-4">
          Show these figures as a table
        </summary>
        <table className="mt-2 w-full max-w-xl text-left">
          <caption className="sr-only">Yearly cost compared</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Provider
              </th>
              <th scope="col" className="py-2 font-semibold">
                Cost per year
              </th>
            </tr>
          </thead>
          <tbody>
            {tableRows.map(([label, cost], i) => (
              <tr key={label} className={i < ours.length + 1 ? "border-b border-line" : undefined}>
                <th scope="row" className="py-2 pr-3 font-normal">
                  {label}
                </th>
                <td className={i < ours.length + 1 ? "py-2 tabular-nums" : "py-2"}>{cost}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function Row({ index, label, children }: { index: number; label: ReactNode; children: ReactNode }) {
  return (
    <g transform={`translate(0 ${index * ROW})`}>
      <text y={14} fill="#15252c" fontWeight={600}>
        {label}
      </text>
      {children}
    </g>
  );
}

export function CostBreakdown() {
  return (
    <div className="space-y-10">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {keyPrices.map((p) => (
          <li
            key={p.service}
            className="rounded-card border border-line bg-surface p-5 shadow-card"
          >
            <p className="text-sm font-semibold text-muted">{p.service}</p>
            <p className="mt-1 font-serif text-2xl font-semibold text-brand-900">{p.price}</p>
            <p className="mt-2 text-sm leading-relaxed text-ink-soft">{p.detail}</p>
          </li>
        ))}
      </ul>

      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        {costYears.map((year) => (
          <Card key={year.id}>
            <div className="flex items-baseline justify-between gap-4 border-b border-line px-5 py-5 sm:px-6">
              <h3 id={`${year.id}-heading`} className="text-2xl">
                {year.title}
              </h3>
              <p className="font-serif text-3xl font-semibold text-brand-900 tabular-nums">
                {formatGBP(year.statedTotal)}
              </p>
            </div>
            <p className="px-5 pt-4 text-sm leading-relaxed text-ink-soft sm:px-6">
              {year.summary}
            </p>
            <table aria-labelledby={`${year.id}-heading`} className="mt-2 w-full text-left text-sm">
              <thead className="sr-only">
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col" className="hidden sm:table-cell">
                    Quantity and price
                  </th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {year.lines.map((line) => (
                  <tr key={line.service} className="border-b border-line/70">
                    <th scope="row" className="py-3 pr-2 pl-5 align-top font-normal sm:pl-6">
                      <span className="block font-semibold text-ink">{line.service}</span>
                      <span className="block text-muted">{line.description}</span>
                      {line.quantity > 1 ? (
                        <span className="mt-0.5 block text-muted tabular-nums sm:hidden">
                          {line.quantity} × {formatGBP(line.unitPrice)}
                        </span>
                      ) : null}
                    </th>
                    <td className="hidden px-2 py-3 text-right align-top whitespace-nowrap text-muted tabular-nums sm:table-cell">
                      {line.quantity > 1 ? `${line.quantity} × ${formatGBP(line.unitPrice)}` : null}
                    </td>
                    <td className="py-3 pr-5 pl-2 text-right align-top font-medium whitespace-nowrap tabular-nums sm:pr-6">
                      {formatGBP(lineAmount(line))}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" className="py-4 pl-5 text-base font-semibold sm:pl-6">
                    {year.title} total
                  </th>
                  <td className="hidden sm:table-cell" />
                  <td className="py-4 pr-5 text-right text-base font-semibold tabular-nums sm:pr-6">
                    {formatGBP(sumLines(year.lines))}
                  </td>
                </tr>
              </tfoot>
            </table>
          </Card>
        ))}
      </div>
    </div>
  );
}
