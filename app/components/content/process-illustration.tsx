import { useId } from "react";

import type { ProcessStep } from "../../content/approach.ts";

/**
 * The three-step process drawn as connected milestones. A horizontal drawing on
 * wider screens, a vertical one on phones; the step titles come from the content module.
 */
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
  const tallY = [64, 204, 344];
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
      <svg
        viewBox="0 0 320 410"
        role="img"
        aria-labelledby={`${id}-tm ${id}-d`}
        className="h-auto w-full sm:hidden"
      >
        <title id={`${id}-tm`}>Our three-step process</title>
        <line
          x1="52"
          y1="64"
          x2="52"
          y2="344"
          strokeWidth="3"
          strokeDasharray="2 10"
          strokeLinecap="round"
          className="stroke-brand-200"
        />
        {steps.map((step, i) => {
          const y = tallY[i] ?? 0;
          return (
            <g key={step.number}>
              <circle cx="52" cy={y} r="46" className="fill-brand-50" />
              <circle cx="52" cy={y} r="32" className="fill-brand-700" />
              <text
                x="52"
                y={y + 11}
                textAnchor="middle"
                className="fill-white font-serif text-[30px] font-semibold"
              >
                {step.number}
              </text>
              <text x="116" y={y - 4} className="fill-ink font-serif text-[22px] font-semibold">
                {step.title}
              </text>
              <text x="116" y={y + 22} className="fill-muted font-sans text-[16px]">
                {captions[i]}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
