import { type FocusEvent, useState } from "react";

import { QuizFrame, progressWidth, questionHeadingId, quizStyles } from "./quiz-frame.tsx";
import { cn } from "../../components/ui/cn.ts";
import { answerOptions, quizQuestions } from "../../content/quiz.ts";
import { type Intent, useOnDemand } from "../../lib/use-on-demand.ts";

const loadQuiz = () => import("./interactive-quiz.tsx");

/**
 * The symptom quiz. The page ships the first question as plain markup, identical to
 * the quiz's first screen; the quiz itself, with Radix RadioGroup and Progress
 * (interactive-quiz.tsx, about 14 KB gzipped), loads when the visitor first points at or
 * focuses it (decision 053). An answer picked before it arrives is kept.
 */
export function SymptomQuiz() {
  const [quiz, request] = useOnDemand(loadQuiz);
  const [intent, setIntent] = useState<Intent>({});
  if (quiz) return <quiz.InteractiveQuiz intent={intent} />;

  const question = quizQuestions[0];
  if (!question) throw new Error("The quiz has no questions");
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const focus = event.target.dataset.focusKey;
    setIntent((current) => ({ ...current, focus }));
    request();
  };

  return (
    <div onPointerOver={request} onFocus={onFocus}>
      <QuizFrame
        index={0}
        percent={0}
        question={question}
        progress={
          <div
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={0}
            aria-valuetext="0% Complete"
            aria-labelledby={quizStyles.progressLabelId}
            className={quizStyles.progressTrack}
          >
            <div className={cn(quizStyles.progressBar, progressWidth[0])} />
          </div>
        }
        choices={
          <div
            role="radiogroup"
            aria-labelledby={questionHeadingId(question)}
            className={quizStyles.choices}
          >
            {answerOptions.map((option, i) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={intent.open === option}
                data-state={intent.open === option ? "checked" : "unchecked"}
                data-focus-key={option}
                // One tab stop for the group, as in the Radix group that replaces it.
                tabIndex={i === 0 ? 0 : -1}
                className={quizStyles.choice}
                onClick={() => {
                  setIntent((current) => ({ ...current, open: option }));
                  request();
                }}
              >
                <span aria-hidden="true" className={quizStyles.dot} />
                {option}
              </button>
            ))}
          </div>
        }
        previous={{ disabled: true }}
        next={{ disabled: true, label: "Next" }}
      />
    </div>
  );
}
