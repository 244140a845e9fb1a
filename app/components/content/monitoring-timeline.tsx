import { useId } from "react";

type Milestone = { when: string; title: string };

/** Months after starting treatment, for spacing the milestones to scale. */
const MONTHS: Record<string, number> = {
  "6 weeks": 1.5,
  "3 months": 3,
  "6 months": 6,
  "12 months": 12,
};

export function MonitoringTimeline({
  milestones,
  after,
}: {
  milestones: Milestone[];
  /** Label for what follows the first year, drawn past the last milestone. */
  after: string;
}) {
  const id = useId();
  const description = `Starting treatment, then ${milestones
    .map((m) => `${m.when}: ${m.title}`)
    .join("; ")}; then ${after}.`;
  const x0 = 70;
  const x1 = 860;
  const xAt = (months: number) => x0 + ((x1 - x0) * months) / 12;

  return (
    <figure className="rounded-card border border-line bg-surface p-4 shadow-card sm:p-6">
      <svg
        viewBox="0 0 1000 210"
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="hidden h-auto w-full sm:block"
      >
        <title id={`${id}-t`}>Monitoring in the first year of treatment</title>
        <desc id={`${id}-d`}>{description}</desc>
        <line x1={x0} y1="110" x2={x1} y2="110" strokeWidth="4" className="stroke-brand-200" />
        <line
          x1={x1}
          y1="110"
          x2="975"
          y2="110"
          strokeWidth="4"
          strokeDasharray="2 10"
          strokeLinecap="round"
          className="stroke-brand-200"
        />
        <circle cx={x0} cy="110" r="10" className="fill-surface stroke-brand-600" strokeWidth="4" />
        <text x={x0} y="160" textAnchor="middle" className="fill-muted font-sans text-[18px]">
          Start
        </text>
        {milestones.map((m, i) => {
          const x = xAt(MONTHS[m.when] ?? 0);
          // Alternate label rows so the close 6-week and 3-month marks never collide.
          const above = i % 2 === 0;
          return (
            <g key={m.when}>
              <circle cx={x} cy="110" r="16" className="fill-brand-700" />
              <circle cx={x} cy="110" r="6" className="fill-white" />
              <text
                x={x}
                y={above ? 72 : 162}
                textAnchor="middle"
                className="fill-ink font-serif text-[24px] font-semibold"
              >
                {m.when}
              </text>
              <text
                x={x}
                y={above ? 44 : 190}
                textAnchor="middle"
                className="fill-muted font-sans text-[17px]"
              >
                {m.title}
              </text>
            </g>
          );
        })}
        <text x="990" y="72" textAnchor="end" className="fill-brass font-sans text-[17px]">
          {after}
        </text>
      </svg>
      {/*
        Phones: an evenly spaced list. Drawn to scale on a narrow column, the first three
        marks (6 weeks, 3 and 6 months) crowd together above a long empty stretch.
      */}
      <div
        role="img"
        aria-label={`Monitoring in the first year of treatment. ${description}`}
        className="sm:hidden"
      >
        <ol className="relative flex flex-col gap-5 py-1 before:absolute before:top-4 before:bottom-4 before:left-3.5 before:-translate-x-1/2 before:border-l-4 before:border-brand-200">
          <li data-mark className="relative flex min-h-7 items-center gap-4">
            <span className="size-7 shrink-0 rounded-full border-4 border-brand-600 bg-surface" />
            <span className="text-base text-muted">Start</span>
          </li>
          {milestones.map((m) => (
            <li key={m.when} data-mark className="relative flex min-h-7 items-center gap-4">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-700">
                <span className="size-2.5 rounded-full bg-white" />
              </span>
              <span className="min-w-0 leading-tight">
                <span className="block font-serif text-lg font-semibold text-ink">{m.when}</span>
                <span className="block text-sm text-muted">{m.title}</span>
              </span>
            </li>
          ))}
          <li data-mark className="relative flex min-h-7 items-center gap-4">
            <span className="flex size-7 shrink-0 items-center justify-center">
              <span className="size-2 rounded-full bg-brand-200" />
            </span>
            <span className="text-sm text-brass">{after}</span>
          </li>
        </ol>
      </div>
    </figure>
  );
}
