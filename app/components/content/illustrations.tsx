import { useId } from "react";

import type { ProcessStep } from "../../content/approach.ts";

export function ProcessIllustration({
  steps,
  captions,
}: {
  steps: ProcessStep[];
  captions: string[];
}) {
  const id = useId();
  const description = steps
    .map((s, i) => `${s.number}. ${s.title}: ${captions[i] ?? ""}`)
    .join("; ");
  return (
    <figure className="rounded-card border border-line bg-surface p-4 shadow-card sm:p-6">
      <svg
        viewBox="0 0 960 230"
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="hidden h-auto w-full sm:block"
      >
        <title id={`${id}-t`}>Our three-step process</title>
        <desc id={`${id}-d`}>{description}</desc>
        <line
          x1="160"
          y1="84"
          x2="800"
          y2="84"
          strokeWidth="3"
          strokeDasharray="2 10"
          strokeLinecap="round"
          className="stroke-brand-200"
        />
        {steps.map((step, i) => {
          const x = 160 + 320 * i; // the centre of the drawing's third
          return (
            <g key={step.number}>
              <circle cx={x} cy="84" r="62" className="fill-brand-50" />
              <circle cx={x} cy="84" r="44" className="fill-brand-700" />
              <text
                x={x}
                y="98"
                textAnchor="middle"
                className="fill-white font-serif text-[40px] font-semibold"
              >
                {step.number}
              </text>
              <text
                x={x}
                y="186"
                textAnchor="middle"
                className="fill-ink font-serif text-[26px] font-semibold"
              >
                {step.title}
              </text>
              <text x={x} y="216" textAnchor="middle" className="fill-muted font-sans text-[18px]">
                {captions[i]}
              </text>
            </g>
          );
        })}
      </svg>
      {/* Phones: HTML rather than a drawing, so long step titles wrap instead of being cut. */}
      <div role="img" aria-label={`Our three-step process. ${description}`} className="sm:hidden">
        <ol className="relative flex flex-col gap-6 py-1 before:absolute before:top-8 before:bottom-8 before:left-8 before:-translate-x-1/2 before:border-l-[3px] before:border-dotted before:border-brand-200">
          {steps.map((step, i) => (
            <li key={step.number} className="relative flex items-center gap-4">
              <span className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-700 font-serif text-2xl font-semibold text-white ring-8 ring-brand-50">
                {step.number}
              </span>
              <span className="min-w-0">
                <span
                  data-step-title
                  className="block font-serif text-xl leading-tight font-semibold text-ink"
                >
                  {step.title}
                </span>
                <span className="mt-0.5 block text-sm text-muted">{captions[i]}</span>
              </span>
            </li>
          ))}
        </ol>
      </div>
    </figure>
  );
}

/** "6 weeks" is 1.5 months, "3 months" is 3. */
const monthsOf = (when: string) => parseFloat(when) / (when.endsWith("weeks") ? 4 : 1);

export function MonitoringTimeline({
  milestones,
  after,
}: {
  milestones: { when: string; title: string }[];
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
          const x = xAt(monthsOf(m.when));
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
      {/* Phones: evenly spaced, as to scale the first three marks would crowd together. */}
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
