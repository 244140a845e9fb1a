import { useId } from "react";

export type Bar = { key: string; label: string; count: number };

/** The smallest 1, 2 or 5 times a power of ten at or above `max`: a scale a person reads at once. */
export function niceCeiling(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * power).find((value) => value >= max) ?? 10 * power;
}

const BAR_PITCH = 10;
const HEIGHT = 100;

/**
 * Counts over time as bars drawn on the server (docs/decisions/134): an inline SVG with no
 * script and no style attribute (the console's CSP has no 'unsafe-inline'), hidden from
 * assistive technology, and the same numbers in the table under it, which is what a screen
 * reader reads. Each bar carries its label and count as data attributes, so a test can hold
 * the chart and the table together.
 */
export function BarChart({
  bars,
  labelColumn,
  countColumn,
  caption,
  note,
}: {
  bars: Bar[];
  labelColumn: string;
  countColumn: string;
  /** The table's caption, which also names the scrollable region. */
  caption: string;
  /** Under the chart: the busiest bar, in words. */
  note: string;
}) {
  const id = useId();
  const top = niceCeiling(Math.max(0, ...bars.map((b) => b.count)));
  const width = bars.length * BAR_PITCH;
  const y = (count: number) => HEIGHT - (count / top) * HEIGHT;
  return (
    <>
      <div className="mt-4 flex gap-2">
        <div
          aria-hidden="true"
          className="flex h-40 w-8 shrink-0 flex-col justify-between text-right text-xs text-muted tabular-nums sm:h-48"
        >
          <span className="-mt-2">{top}</span>
          <span>{top / 2}</span>
          <span className="-mb-2">0</span>
        </div>
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${String(width)} ${String(HEIGHT)}`}
          preserveAspectRatio="none"
          className="h-40 w-full min-w-0 rounded-sm border-b border-ink-soft bg-surface sm:h-48"
        >
          {[0, HEIGHT / 2].map((at) => (
            <line
              key={at}
              x1="0"
              x2={width}
              y1={at}
              y2={at}
              vectorEffect="non-scaling-stroke"
              className="stroke-line"
            />
          ))}
          {bars.map((bar, i) => (
            <rect
              key={bar.key}
              data-label={bar.label}
              data-count={bar.count}
              x={i * BAR_PITCH + 1.5}
              width={BAR_PITCH - 3}
              y={y(bar.count)}
              height={HEIGHT - y(bar.count)}
              className={i === bars.length - 1 ? "fill-brass" : "fill-brand-600"}
            />
          ))}
        </svg>
      </div>
      <p aria-hidden="true" className="mt-1 ml-10 flex justify-between text-xs text-muted">
        <span>{bars[0]?.label}</span>
        <span>{bars.at(-1)?.label}</span>
      </p>
      <p className="mt-2 text-sm text-ink-soft">{note}</p>
      <div
        className="mt-3 max-h-64 overflow-y-auto rounded-sm border border-line bg-surface"
        role="region"
        aria-labelledby={`${id}-caption`}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus (WCAG 2.1.1)
        tabIndex={0}
      >
        <table className="w-full text-left text-sm">
          <caption id={`${id}-caption`} className="sr-only">
            {caption}
          </caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="sticky top-0 bg-surface px-3 py-2">
                {labelColumn}
              </th>
              <th scope="col" className="sticky top-0 bg-surface px-3 py-2 text-right">
                {countColumn}
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr
                key={bar.key}
                data-label={bar.label}
                className="border-b border-line last:border-0"
              >
                <th scope="row" className="px-3 py-1.5 font-normal">
                  {bar.label}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{bar.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
