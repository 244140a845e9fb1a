import { useId } from "react";

import type { ProcessStep } from "../../content/approach.ts";

export function ProcessIllustration({
  steps,
  captions,
}: {
  steps: ProcessStep[];
  /** A two- or three-word caption under each step title. */
  captions: string[];
}) {
  const id = useId();
  const description = steps
    .map((s, i) => `${s.number}. ${s.title}: ${captions[i] ?? ""}`)
    .join("; ");
  const wideX = [160, 480, 800];
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
          const x = wideX[i] ?? 0;
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
