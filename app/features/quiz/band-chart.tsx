import { useId } from "react";

import { MAX_SCORE, riskBandFor, riskBands } from "./scoring.ts";
import { cn } from "../../components/ui/cn.ts";
import { riskBandText } from "../../content/quiz.ts";

const WIDTH = 400;
const fills = { low: "#23613b", moderate: "#7f5a24", higher: "#1f5450" } as const;

/** Scale position of a score. Bands hold whole numbers, so 10 and 11 meet at 10.5. */
function x(score: number) {
  return (Math.min(Math.max(score, 0), MAX_SCORE) / MAX_SCORE) * WIDTH;
}

/**
 * Where a total falls among the three bands. The SVG is the picture; every fact
 * in it is also text (its title and description, and the labels under it), and
 * all lettering is HTML so it stays readable when the picture scales down.
 */
export function BandChart({ total }: { total: number }) {
  const id = useId();
  const band = riskBandFor(total);
  const current = riskBands.find((b) => b.key === band);
  const last = riskBands.length - 1;
  const pointer = x(total);
  const description = `A scale from 0 to ${MAX_SCORE} in three bands: ${riskBands
    .map((b) => `${riskBandText[b.key].title} ${b.min} to ${b.max}`)
    .join(", ")}. Your total of ${total} is in the ${riskBandText[band].title} band.`;

  return (
    <figure className="rounded-control border border-line bg-paper px-4 pt-4 pb-3 sm:px-5">
      <svg
        viewBox={`-8 0 ${WIDTH + 16} 40`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="h-auto w-full overflow-visible"
      >
        <title id={`${id}-title`}>Where your total falls</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {riskBands.map((b, i) => {
          const start = i === 0 ? 0 : x(b.min - 0.5);
          const end = i === last ? WIDTH : x(b.max + 0.5);
          return (
            <rect
              key={b.key}
              x={start + (i === 0 ? 0 : 1.5)}
              y={16}
              width={end - start - (i === 0 || i === last ? 1.5 : 3)}
              height={18}
              rx={3}
              fill={fills[b.key]}
              opacity={b.key === band ? 1 : 0.25}
            />
          );
        })}
        <path
          d={`M ${pointer - 7} 2 L ${pointer + 7} 2 L ${pointer} 13 Z`}
          fill="#15252c"
          stroke="#15252c"
          strokeLinejoin="round"
          strokeWidth={2}
        />
        <line x1={pointer} x2={pointer} y1={12} y2={38} stroke="#15252c" strokeWidth={2.5} />
      </svg>
      {/* The band labels line up under their segments: the columns share the scale. */}
      <ul
        className="mt-2 grid grid-cols-[10.5fr_10fr_19.5fr] gap-1 px-[1.9%] text-xs sm:text-sm"
        aria-label="Score bands"
      >
        {riskBands.map((b) => (
          <li
            key={b.key}
            className={cn(
              "text-center leading-tight",
              b.key === band ? "font-bold text-ink" : "text-muted",
            )}
          >
            {riskBandText[b.key].short}
            <span className="block tabular-nums">
              {b.min}-{b.max}
            </span>
          </li>
        ))}
      </ul>
      <figcaption className="mt-3 border-t border-line pt-3 text-sm text-ink-soft">
        Your total of <strong className="text-ink">{total}</strong> out of {MAX_SCORE} sits in the{" "}
        <strong className="text-ink">{riskBandText[band].title}</strong> band ({current?.min}-
        {current?.max}).
      </figcaption>
    </figure>
  );
}
