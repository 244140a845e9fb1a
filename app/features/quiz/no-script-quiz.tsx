import { answerPoints, riskBands } from "./scoring.ts";
import { answerOptions, quizIntro, quizQuestions, riskBandText } from "../../content/quiz.ts";

/**
 * What a visitor without JavaScript gets: every question and the scoring key,
 * so he can score himself on paper. React renders <noscript> content on the
 * server only, so it costs nothing once the quiz is interactive.
 */
export function NoScriptQuiz() {
  return (
    <noscript>
      <div className="mb-8 rounded-card border border-warning/30 bg-warning-bg px-5 py-5 text-ink sm:px-7">
        <p className="font-semibold">{quizIntro.noScript}</p>
        <ol className="mt-4 list-decimal space-y-2 pl-6">
          {quizQuestions.map((q) => (
            <li key={q.id}>{q.text}</li>
          ))}
        </ol>
        <p className="mt-4">
          Points: {answerOptions.map((o) => `${o} ${answerPoints[o]}`).join(", ")}. Your total
          means:
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          {riskBands.map((b) => (
            <li key={b.key}>
              <strong>
                {b.min}-{b.max}, {riskBandText[b.key].title}:
              </strong>{" "}
              {riskBandText[b.key].message}
            </li>
          ))}
        </ul>
      </div>
    </noscript>
  );
}
