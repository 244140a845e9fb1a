import { ArrowRight, Home, Printer } from "lucide-react";
import { type RefObject, useId } from "react";

import { MAX_SCORE, riskBandFor, riskBands, topAnswers } from "./scoring.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cn } from "../../components/ui/cn.ts";
import {
  type AnswerOption,
  quizIntro,
  quizResultGuide as guide,
  riskBandText,
} from "../../content/quiz.ts";

const bandTone = {
  low: "border-success/30 bg-success/5",
  moderate: "border-brass/30 bg-brass-soft/60",
  higher: "border-brand-700/30 bg-brand-50",
} as const;

const WIDTH = 400;
const fills = { low: "#23613b", moderate: "#7f5a24", higher: "#1f5450" } as const;

/** Bands hold whole numbers, so 10 and 11 meet at 10.5. */
const x = (score: number) => (Math.min(Math.max(score, 0), MAX_SCORE) / MAX_SCORE) * WIDTH;

export function QuizResult({
  total,
  answers,
  headingRef,
}: {
  total: number;
  answers: readonly (AnswerOption | undefined)[];
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const id = useId();
  const band = riskBandFor(total);
  const text = riskBandText[band];
  const highest = topAnswers(answers);
  const current = riskBands.find((b) => b.key === band);
  const last = riskBands.length - 1;
  const pointer = x(total);
  const description = `A scale from 0 to ${MAX_SCORE} in three bands: ${riskBands
    .map((b) => `${riskBandText[b.key].title} ${b.min} to ${b.max}`)
    .join(", ")}. Your total of ${total} is in the ${riskBandText[band].title} band.`;

  return (
    <Card className="quiz-result print:border-0 print:shadow-none">
      <div className={cn("rounded-t-card border-b px-5 py-6 sm:px-8 sm:py-8", bandTone[band])}>
        <p className="text-sm font-semibold tracking-wider text-muted uppercase">Your result</p>
        <h2
          ref={headingRef}
          tabIndex={-1}
          className="mt-2 scroll-mt-40 text-3xl outline-none sm:text-4xl"
        >
          {text.title}
        </h2>
        <p className="mt-2 text-lg text-ink-soft">
          You scored <strong className="text-ink tabular-nums">{total}</strong> out of {MAX_SCORE}.
        </p>
      </div>

      <div className="space-y-6 px-5 py-6 sm:px-8 sm:py-8 print:space-y-2 print:p-0">
        <p className="text-lg leading-relaxed">{text.message}</p>

        {/* Every fact in the picture is also text; all lettering is HTML, readable when it shrinks. */}
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
            Your total of <strong className="text-ink">{total}</strong> out of {MAX_SCORE} sits in
            the <strong className="text-ink">{riskBandText[band].title}</strong> band (
            {current?.min}-{current?.max}).
          </figcaption>
        </figure>

        <section aria-labelledby="result-meaning" className="space-y-2 print:space-y-1">
          <h3 id="result-meaning" className="text-xl print:text-base">
            {guide.meaningTitle}
          </h3>
          {guide.meaning.map((p) => (
            <p key={p} className="leading-relaxed text-ink-soft print:text-xs">
              {p}
            </p>
          ))}
        </section>

        <section aria-labelledby="result-top-answers" className="print:break-inside-avoid">
          <h3 id="result-top-answers" className="text-xl print:text-base">
            {guide.topAnswersTitle}
          </h3>
          {highest.length > 0 ? (
            <ul className="mt-2 space-y-1.5 print:mt-1 print:space-y-0.5">
              {highest.map(({ question, answer }) => (
                <li key={question.id} className="leading-relaxed text-ink-soft print:text-xs">
                  {question.text} <strong className="text-ink">{answer}</strong>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-ink-soft print:text-xs">{guide.topAnswersNone}</p>
          )}
        </section>

        <section aria-labelledby="result-next-steps" className="print:break-inside-avoid">
          <h3 id="result-next-steps" className="text-xl print:text-base">
            {guide.nextStepsTitle}
          </h3>
          <ol className="mt-2 list-decimal space-y-1.5 pl-5 print:mt-1 print:space-y-0.5">
            {guide.nextSteps.map((step) => (
              <li key={step} className="leading-relaxed text-ink-soft print:text-xs">
                {step}
              </li>
            ))}
          </ol>
        </section>

        <section
          aria-labelledby="result-urgent"
          className="rounded-control border border-line bg-paper px-4 py-3 print:px-2 print:py-1"
        >
          <h3 id="result-urgent" className="text-lg print:text-sm">
            {guide.urgentTitle}
          </h3>
          <p className="mt-1 text-sm leading-relaxed text-ink-soft print:text-xs">{guide.urgent}</p>
        </section>

        <p className="text-sm leading-relaxed text-ink-soft print:text-xs">
          <strong className="text-ink">Please note:</strong> {quizIntro.screeningNote}{" "}
          {guide.privacy}
        </p>

        <div className="print:hidden">
          <Button type="button" variant="secondary" onClick={() => window.print()}>
            <Printer aria-hidden="true" />
            {guide.printLabel}
          </Button>
        </div>

        <div className="flex flex-col gap-3 sm:flex-row print:hidden">
          <ButtonLink to="/register-interest" size="lg">
            Register Your Interest
            <ArrowRight aria-hidden="true" />
          </ButtonLink>
          <ButtonLink to="/" variant="secondary" size="lg">
            <Home aria-hidden="true" />
            Return Home
          </ButtonLink>
        </div>
      </div>
    </Card>
  );
}
