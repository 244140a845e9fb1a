import * as Progress from "@radix-ui/react-progress";
import * as RadioGroup from "@radix-ui/react-radio-group";
import { ArrowLeft, ArrowRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { QuizResult } from "./quiz-result.tsx";
import { type AnswerOption, answerOptions, quizQuestions } from "../../content/quiz.ts";
import { percentComplete, scoreAnswers } from "../../lib/quiz/scoring.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { cn } from "../ui/cn.ts";

type Answers = (AnswerOption | undefined)[];

// Whole classes rather than an inline style, so a strict style-src CSP never blocks the bar.
const progressWidth = [
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

/**
 * The ten-question quiz, one question at a time. Answers live only in this
 * component's state: nothing is stored or sent, and leaving the page clears them.
 */
export function SymptomQuiz() {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Answers>(() => quizQuestions.map(() => undefined));
  const [finished, setFinished] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Focus moves only after the visitor navigates, never on first load.
  const moved = useRef(false);

  useEffect(() => {
    if (!moved.current) return;
    headingRef.current?.focus();
  }, [index, finished]);

  if (finished) {
    return <QuizResult total={scoreAnswers(answers)} headingRef={headingRef} />;
  }

  const question = quizQuestions[index];
  if (!question) throw new Error(`No quiz question at index ${index}`);
  const answer = answers[index];
  const isLast = index === quizQuestions.length - 1;
  const percent = percentComplete(answers);
  const headingId = `quiz-question-${question.id}`;

  function choose(value: string) {
    const option = answerOptions.find((o) => o === value);
    if (!option) return;
    setAnswers((prev) => prev.map((a, i) => (i === index ? option : a)));
  }

  function goNext() {
    if (answer === undefined) return;
    moved.current = true;
    if (isLast) setFinished(true);
    else setIndex(index + 1);
  }

  function goPrevious() {
    if (index === 0) return;
    moved.current = true;
    setIndex(index - 1);
  }

  return (
    <Card padding="none">
      <div className="border-b border-line px-5 py-5 sm:px-8">
        <div className="flex items-baseline justify-between gap-4 text-sm">
          <p className="font-semibold text-brand-800">
            Question {index + 1} of {quizQuestions.length}
          </p>
          <p id="quiz-progress-label" className="text-muted tabular-nums">
            {percent}% Complete
          </p>
        </div>
        <Progress.Root
          value={percent}
          max={100}
          aria-labelledby="quiz-progress-label"
          getValueLabel={(value) => `${value}% Complete`}
          className="relative mt-3 h-2.5 overflow-hidden rounded-full bg-sand"
        >
          <Progress.Indicator
            className={cn(
              "h-full rounded-full bg-brand-700 transition-[width] duration-300 ease-out",
              progressWidth[percent / 10],
            )}
          />
        </Progress.Root>
      </div>

      <div className="px-5 py-6 sm:px-8 sm:py-8">
        <h2
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          className="scroll-mt-40 text-2xl leading-snug outline-none sm:text-[1.75rem]"
        >
          <span className="sr-only">
            Question {index + 1} of {quizQuestions.length}:{" "}
          </span>
          {question.text}
        </h2>

        <RadioGroup.Root
          // Remounted per question, so roving focus starts on this question's answer.
          key={question.id}
          aria-labelledby={headingId}
          value={answer ?? ""}
          onValueChange={choose}
          className="mt-6 grid gap-2.5"
        >
          {answerOptions.map((option) => (
            <RadioGroup.Item
              key={option}
              value={option}
              className="group flex min-h-14 w-full items-center gap-4 rounded-control border border-line bg-surface px-4 py-3 text-left text-lg text-ink transition-colors hover:border-brand-600 hover:bg-brand-50 data-[state=checked]:border-brand-700 data-[state=checked]:bg-brand-50 data-[state=checked]:font-semibold"
            >
              <span
                aria-hidden="true"
                className="flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-muted group-data-[state=checked]:border-brand-700"
              >
                <RadioGroup.Indicator className="size-3 rounded-full bg-brand-700" />
              </span>
              {option}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>

        <div className="mt-8 flex items-center justify-between gap-3">
          <Button variant="secondary" onClick={goPrevious} disabled={index === 0}>
            <ArrowLeft aria-hidden="true" />
            Previous
          </Button>
          <Button onClick={goNext} disabled={answer === undefined}>
            {isLast ? "View Results" : "Next"}
            <ArrowRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Card>
  );
}
