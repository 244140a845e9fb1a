import * as Progress from "@radix-ui/react-progress";
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useEffect, useLayoutEffect, useRef, useState } from "react";

import { QuizFrame, progressWidth, questionHeadingId, quizStyles } from "./quiz-frame.tsx";
import { QuizResult } from "./quiz-result.tsx";
import { percentComplete, scoreAnswers } from "./scoring.ts";
import { cn } from "../../components/ui/cn.ts";
import { type AnswerOption, answerOptions, quizQuestions } from "../../content/quiz.ts";
import { type Intent, restoreFocus } from "../../lib/use-on-demand.ts";

type Answers = (AnswerOption | undefined)[];

const asOption = (value: string | undefined) => answerOptions.find((o) => o === value);

/**
 * The ten-question quiz, one question at a time, with Radix RadioGroup and Progress.
 * It loads on first intent (symptom-quiz.tsx) and starts from what the visitor did to
 * the stand-in: the first answer he picked and the option that had focus. Answers live
 * only in this component's state: nothing is stored or sent, and leaving the page
 * clears them.
 */
export function InteractiveQuiz({ intent }: { intent: Intent }) {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Answers>(() =>
    quizQuestions.map((_, i) => (i === 0 ? asOption(intent.open) : undefined)),
  );
  const [finished, setFinished] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  // Focus moves only after the visitor navigates, never on first load.
  const moved = useRef(false);

  useLayoutEffect(() => restoreFocus(rootRef.current, intent.focus), [intent.focus]);
  useEffect(() => {
    if (!moved.current) return;
    headingRef.current?.focus();
  }, [index, finished]);

  if (finished) {
    return <QuizResult total={scoreAnswers(answers)} answers={answers} headingRef={headingRef} />;
  }

  const question = quizQuestions[index];
  if (!question) throw new Error(`No quiz question at index ${index}`);
  const answer = answers[index];
  const isLast = index === quizQuestions.length - 1;
  const percent = percentComplete(answers);

  function choose(value: string) {
    const option = asOption(value);
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
    <div ref={rootRef}>
      <QuizFrame
        index={index}
        percent={percent}
        question={question}
        headingRef={headingRef}
        progress={
          <Progress.Root
            value={percent}
            max={100}
            aria-labelledby={quizStyles.progressLabelId}
            getValueLabel={(value) => `${value}% Complete`}
            className={quizStyles.progressTrack}
          >
            <Progress.Indicator
              className={cn(quizStyles.progressBar, progressWidth[percent / 10])}
            />
          </Progress.Root>
        }
        choices={
          <RadioGroup.Root
            // Remounted per question, so roving focus starts on this question's answer.
            key={question.id}
            aria-labelledby={questionHeadingId(question)}
            value={answer ?? ""}
            onValueChange={choose}
            className={quizStyles.choices}
          >
            {answerOptions.map((option) => (
              <RadioGroup.Item
                key={option}
                value={option}
                data-focus-key={option}
                className={quizStyles.choice}
              >
                <span aria-hidden="true" className={quizStyles.dot}>
                  <RadioGroup.Indicator className={quizStyles.dotFill} />
                </span>
                {option}
              </RadioGroup.Item>
            ))}
          </RadioGroup.Root>
        }
        previous={{ disabled: index === 0, onClick: goPrevious }}
        next={{
          disabled: answer === undefined,
          onClick: goNext,
          label: isLast ? "View Results" : "Next",
        }}
      />
    </div>
  );
}
