import { useId } from "react";

type Milestone = { when: string; title: string };

/** Months after starting treatment, for spacing the milestones to scale. */
const MONTHS: Record<string, number> = {
  "6 weeks": 1.5,
  "3 months": 3,
  "6 months": 6,
  "12 months": 12,
};

/**
 * The first year of monitoring as a timeline drawn to scale (6 weeks, 3, 6 and 12 months).
 * Horizontal on wider screens, vertical on phones.
 */
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
  const y0 = 50;
  const y1 = 400;
  const yAt = (months: number) => y0 + ((y1 - y0) * months) / 12;

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
      <svg
        viewBox="0 0 320 470"
        role="img"
        aria-labelledby={`${id}-tm ${id}-d`}
        className="h-auto w-full sm:hidden"
      >
        <title id={`${id}-tm`}>Monitoring in the first year of treatment</title>
        <line x1="40" y1={y0} x2="40" y2={y1} strokeWidth="4" className="stroke-brand-200" />
        <line
          x1="40"
          y1={y1}
          x2="40"
          y2="455"
          strokeWidth="4"
          strokeDasharray="2 10"
          strokeLinecap="round"
          className="stroke-brand-200"
        />
        <circle cx="40" cy={y0} r="9" className="fill-surface stroke-brand-600" strokeWidth="4" />
        <text x="72" y={y0 + 6} className="fill-muted font-sans text-[16px]">
          Start
        </text>
        {milestones.map((m, i) => {
          const y = yAt(MONTHS[m.when] ?? 0);
          // The first two marks sit close together: nudge the first label up a little.
          const dy = i === 0 ? -10 : 0;
          return (
            <g key={m.when}>
              <circle cx="40" cy={y} r="14" className="fill-brand-700" />
              <circle cx="40" cy={y} r="5" className="fill-white" />
              <text x="72" y={y + dy + 2} className="fill-ink font-serif text-[20px] font-semibold">
                {m.when}
              </text>
              <text x="72" y={y + dy + 22} className="fill-muted font-sans text-[15px]">
                {m.title}
              </text>
            </g>
          );
        })}
        <text x="72" y="452" className="fill-brass font-sans text-[15px]">
          {after}
        </text>
      </svg>
    </figure>
  );
}
