import { ArrowLeft, ArrowRight } from "lucide-react";
import type { ReactNode, Ref } from "react";

import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { type QuizQuestion, quizQuestions } from "../../content/quiz.ts";

/** Whole classes rather than an inline style, so a strict style-src CSP never blocks the bar. */
export const progressWidth = [
  "w-0",
  "w-[10%]",
  "w-[20%]",
  "w-[30%]",
  "w-[40%]",
  "w-[50%]",
  "w-[60%]",
  "w-[70%]",
  "w-[80%]",
  "w-[90%]",
  "w-full",
] as const;

export const quizStyles = {
  progressLabelId: "quiz-progress-label",
  progressTrack: "relative mt-3 h-2.5 overflow-hidden rounded-full bg-sand",
  progressBar: "h-full rounded-full bg-brand-700 transition-[width] duration-300 ease-out",
  choices: "mt-6 grid gap-2.5",
  choice:
    "group flex min-h-14 w-full items-center gap-4 rounded-control border border-line bg-surface px-4 py-3 text-left text-lg text-ink transition-colors hover:border-brand-600 hover:bg-brand-50 data-[state=checked]:border-brand-700 data-[state=checked]:bg-brand-50 data-[state=checked]:font-semibold",
  dot: "flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-muted group-data-[state=checked]:border-brand-700",
  dotFill: "size-3 rounded-full bg-brand-700",
} as const;

export const questionHeadingId = (question: QuizQuestion) => `quiz-question-${question.id}`;

/**
 * One question screen of the quiz: the progress header, the question, its answers and
 * the Previous and Next buttons. The answers and the bar come from the caller, so the
 * prerendered stand-in and the Radix quiz share everything else.
 */
export function QuizFrame({
  index,
  percent,
  question,
  headingRef,
  progress,
  choices,
  previous,
  next,
}: {
  index: number;
  percent: number;
  question: QuizQuestion;
  headingRef?: Ref<HTMLHeadingElement>;
  progress: ReactNode;
  choices: ReactNode;
  previous: { disabled: boolean; onClick?: () => void };
  next: { disabled: boolean; onClick?: () => void; label: string };
}) {
  return (
    <Card padding="none">
      <div className="border-b border-line px-5 py-5 sm:px-8">
        <div className="flex items-baseline justify-between gap-4 text-sm">
          <p className="font-semibold text-brand-800">
            Question {index + 1} of {quizQuestions.length}
          </p>
          <p id={quizStyles.progressLabelId} className="text-muted tabular-nums">
            {percent}% Complete
          </p>
        </div>
        {progress}
      </div>

      <div className="px-5 py-6 sm:px-8 sm:py-8">
        <h2
          id={questionHeadingId(question)}
          ref={headingRef}
          tabIndex={-1}
          className="scroll-mt-40 text-2xl leading-snug outline-none sm:text-[1.75rem]"
        >
          <span className="sr-only">
            Question {index + 1} of {quizQuestions.length}:{" "}
          </span>
          {question.text}
        </h2>

        {choices}

        <div className="mt-8 flex items-center justify-between gap-3">
          <Button variant="secondary" onClick={previous.onClick} disabled={previous.disabled}>
            <ArrowLeft aria-hidden="true" />
            Previous
          </Button>
          <Button onClick={next.onClick} disabled={next.disabled}>
            {next.label}
            <ArrowRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Card>
  );
}
