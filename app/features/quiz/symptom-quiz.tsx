import { ArrowLeft, ArrowRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { QuizResult } from "./quiz-result.tsx";
import { percentComplete, scoreAnswers } from "./scoring.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { type AnswerOption, answerOptions, quizQuestions } from "../../content/quiz.ts";

const asOption = (value: string | undefined) => answerOptions.find((o) => o === value);
const progressLabelId = "quiz-progress-label";
const narrowButton = "max-[359px]:px-3 max-[359px]:[&_svg]:hidden";

/** Native radios in a fieldset (decision 054); answers live only in this state, never sent. */
function SymptomQuiz() {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState(() =>
    quizQuestions.map((): AnswerOption | undefined => undefined),
  );
  const [finished, setFinished] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fieldsetRef = useRef<HTMLFieldSetElement>(null);
  // Focus follows the visitor's moves, never the first load.
  const moved = useRef(false);

  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [index, finished]);

  // An answer picked before hydration stays checked: adopt it, so Next and the count agree.
  useEffect(() => {
    const early = asOption(fieldsetRef.current?.querySelector<HTMLInputElement>(":checked")?.value);
    if (early) setAnswers((prev) => prev.map((a, i) => (i === 0 && a === undefined ? early : a)));
  }, []);

  if (finished) {
    return <QuizResult total={scoreAnswers(answers)} answers={answers} headingRef={headingRef} />;
  }

  const question = quizQuestions[index];
  if (!question) throw new Error(`No quiz question at index ${index}`);
  const answer = answers[index];
  const isLast = index === quizQuestions.length - 1;
  const percent = percentComplete(answers);

  function goNext() {
    moved.current = true;
    if (isLast) setFinished(true);
    else setIndex(index + 1);
  }

  function goPrevious() {
    moved.current = true;
    setIndex(index - 1);
  }

  return (
    <Card>
      <div className="border-b border-line px-5 py-5 sm:px-8">
        <div className="flex items-baseline justify-between gap-4 text-sm">
          <p className="font-semibold text-brand-800">
            Question {index + 1} of {quizQuestions.length}
          </p>
          <p id={progressLabelId} className="text-muted tabular-nums">
            {percent}% Complete
          </p>
        </div>
        <progress
          value={percent}
          max={100}
          aria-labelledby={progressLabelId}
          className="mt-3 block h-2.5 w-full appearance-none overflow-hidden rounded-full bg-sand [&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-bar]:bg-sand [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-brand-700"
        />
      </div>

      <div className="px-5 py-6 sm:px-8 sm:py-8">
        <fieldset
          // A new group per question, so no radio starts focused.
          key={question.id}
          ref={fieldsetRef}
        >
          <legend className="w-full">
            <h2
              ref={headingRef}
              tabIndex={-1}
              className="scroll-mt-40 text-2xl leading-snug outline-none sm:text-[1.75rem]"
            >
              <span className="sr-only">
                Question {index + 1} of {quizQuestions.length}:{" "}
              </span>
              {question.text}
            </h2>
          </legend>

          <div className="mt-6 grid gap-2.5">
            {answerOptions.map((option) => (
              <label
                key={option}
                className="flex min-h-14 w-full cursor-pointer items-center gap-4 rounded-control border border-line bg-surface px-4 py-3 text-lg text-ink transition-colors hover:border-brand-600 hover:bg-brand-50 has-checked:border-brand-700 has-checked:bg-brand-50 has-checked:font-semibold"
              >
                <input
                  type="radio"
                  name={`quiz-${question.id}`}
                  value={option}
                  checked={answer === option}
                  onChange={() =>
                    setAnswers((prev) => prev.map((a, i) => (i === index ? option : a)))
                  }
                  className="size-5 shrink-0 accent-brand-700"
                />
                {option}
              </label>
            ))}
          </div>
        </fieldset>

        <div className="mt-8 flex items-center justify-between gap-3">
          <Button
            variant="secondary"
            onClick={goPrevious}
            disabled={index === 0}
            className={narrowButton}
          >
            <ArrowLeft aria-hidden="true" />
            Previous
          </Button>
          <Button onClick={goNext} disabled={answer === undefined} className={narrowButton}>
            {isLast ? "View Results" : "Next"}
            <ArrowRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Card>
  );
}

export const quizIsland = { name: "quiz", Component: SymptomQuiz };
