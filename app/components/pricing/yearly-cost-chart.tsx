import { useId } from "react";

import { yearlyCostChart } from "../../content/pricing.ts";
import { formatGBP } from "../../lib/pricing/format.ts";

const W = 360;
const LABEL_H = 16;
const BAR_H = 16;
const ROW = 52;
const BAR_MAX = 250;
const SCALE_MAX = 2500;

function w(amount: number) {
  return (amount / SCALE_MAX) * BAR_MAX;
}

/**
 * Our year-1 and year-2 costs beside the other-clinics range and the NHS, as an
 * SVG with a title and description, and the same figures in a table beneath.
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
  const rows = 4;

  return (
    <figure className="rounded-card border border-line bg-surface p-5 shadow-card sm:p-6">
      <figcaption className="font-serif text-xl text-ink">Cost per year at a glance</figcaption>
      <svg
        viewBox={`0 0 ${W} ${rows * ROW}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="mt-4 h-auto w-full max-w-lg"
      >
        <title id={`${id}-title`}>Yearly cost compared</title>
        <desc id={`${id}-desc`}>{description}.</desc>
        {ours.map((o, i) => (
          <g key={o.label} transform={`translate(0 ${i * ROW})`}>
            <text y={12} fontSize="12.5" fill="#15252c" fontWeight={600}>
              {o.label}
            </text>
            <rect
              y={LABEL_H + 2}
              width={w(o.amount)}
              height={BAR_H}
              rx={3}
              fill={i === 0 ? "#1f5450" : "#2b6b66"}
            />
            <text x={w(o.amount) + 6} y={LABEL_H + 14} fontSize="12.5" fill="#15252c">
              {formatGBP(o.amount)}
            </text>
          </g>
        ))}
        <g transform={`translate(0 ${2 * ROW})`}>
          <text y={12} fontSize="12.5" fill="#15252c" fontWeight={600}>
            {otherClinics.label} (typical range)
          </text>
          <rect y={LABEL_H + 2} width={w(otherClinics.min)} height={BAR_H} rx={3} fill="#acd0ca" />
          <rect
            x={w(otherClinics.min)}
            y={LABEL_H + 2}
            width={w(otherClinics.max) - w(otherClinics.min)}
            height={BAR_H}
            rx={3}
            fill="#ece6da"
            stroke="#7f5a24"
            strokeDasharray="4 3"
          />
          <text x={w(otherClinics.max) + 6} y={LABEL_H + 14} fontSize="12.5" fill="#15252c">
            up to {formatGBP(otherClinics.max)}
          </text>
        </g>
        <g transform={`translate(0 ${3 * ROW})`}>
          <text y={12} fontSize="12.5" fill="#15252c" fontWeight={600}>
            {nhs.label}
          </text>
          <rect y={LABEL_H + 2} width={2} height={BAR_H} fill="#15252c" />
          <text x={8} y={LABEL_H + 14} fontSize="12.5" fill="#15252c">
            {formatGBP(nhs.amount)} for care; prescription charges may apply
          </text>
        </g>
      </svg>
      <details className="mt-4 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-800 underline underline-offset-4">
          Show these figures as a table
        </summary>
        <table className="mt-2 w-full text-left">
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
            {ours.map((o) => (
              <tr key={o.label} className="border-b border-line">
                <th scope="row" className="py-2 pr-3 font-normal">
                  {o.label}
                </th>
                <td className="py-2 tabular-nums">{formatGBP(o.amount)}</td>
              </tr>
            ))}
            <tr className="border-b border-line">
              <th scope="row" className="py-2 pr-3 font-normal">
                {otherClinics.label}
              </th>
              <td className="py-2 tabular-nums">About {rangeText}</td>
            </tr>
            <tr>
              <th scope="row" className="py-2 pr-3 font-normal">
                {nhs.label}
              </th>
              <td className="py-2">{nhs.note}</td>
            </tr>
          </tbody>
        </table>
      </details>
    </figure>
  );
}
