import { type ReactNode, useId } from "react";

import { formatGBP } from "../../content/money.ts";
import { yearlyCostChart } from "../../content/pricing.ts";

const ROW = 54;
const BAR_Y = 22;
const BAR_H = 16;
/** Bars use at most this share of the width, leaving room for the figure after them. */
const BAR_SPAN = 68;
const SCALE_MAX = 2500;

/** A bar length as a percentage of the chart's width. */
const pct = (amount: number) => (amount / SCALE_MAX) * BAR_SPAN;

/**
 * Our year-1 and year-2 costs beside the other-clinics range and the NHS. The SVG
 * has no viewBox: bars are sized in percentages and text in pixels, so the
 * lettering stays readable at 390px and does not balloon at 1280px. The same
 * figures are in its title and description, and in a table beneath.
 */
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
          <g key={o.label} transform={`translate(0 ${i * ROW})`}>
            <text y={14} fill="#15252c" fontWeight={600}>
              {o.label}
            </text>
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
          </g>
        ))}
        <g transform={`translate(0 ${2 * ROW})`}>
          <text y={14} fill="#15252c" fontWeight={600}>
            {otherClinics.label}, typical range
          </text>
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
        </g>
        <g transform={`translate(0 ${3 * ROW})`}>
          <text y={14} fill="#15252c" fontWeight={600}>
            {nhs.label}
          </text>
          <rect y={BAR_Y} width={3} height={BAR_H} fill="#15252c" />
          <text x={12} y={BAR_Y + 13} fill="#15252c">
            {formatGBP(nhs.amount)} for care
          </text>
        </g>
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
