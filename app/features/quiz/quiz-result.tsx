import { ArrowRight, Home } from "lucide-react";
import type { RefObject } from "react";

import { BandChart } from "./band-chart.tsx";
import { MAX_SCORE, riskBandFor } from "./scoring.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { cn } from "../../components/ui/cn.ts";
import { quizIntro, riskBandText } from "../../content/quiz.ts";

const bandTone = {
  low: "border-success/30 bg-success/5",
  moderate: "border-brass/30 bg-brass-soft/60",
  higher: "border-brand-700/30 bg-brand-50",
} as const;

/** The result screen: band, meaning, where the total sits, and what to do next. */
export function QuizResult({
  total,
  headingRef,
}: {
  total: number;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const band = riskBandFor(total);
  const text = riskBandText[band];

  return (
    <Card padding="none">
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

      <div className="space-y-6 px-5 py-6 sm:px-8 sm:py-8">
        <p className="text-lg leading-relaxed">{text.message}</p>

        <BandChart total={total} />

        <p className="rounded-control border border-line bg-paper px-4 py-3 text-sm leading-relaxed text-ink-soft">
          <strong className="text-ink">Please note:</strong> {quizIntro.screeningNote} Your answers
          have not been saved or sent anywhere.
        </p>

        <div className="flex flex-col gap-3 sm:flex-row">
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
