import { answerPoints, isAnswerOption } from "./scoring.ts";
import { type AnswerOption, type QuizQuestion, quizQuestions } from "../../content/quiz.ts";

export type ScoredAnswer = { question: QuizQuestion; answer: AnswerOption; points: number };

/**
 * The answers that scored highest: every answer at the top score given (above Never),
 * in question order, at most `limit` of them.
 */
export function topAnswers(
  answers: readonly (AnswerOption | undefined)[],
  limit = 3,
): ScoredAnswer[] {
  const scored = quizQuestions.flatMap((question, i) => {
    const answer = answers[i];
    return isAnswerOption(answer) ? [{ question, answer, points: answerPoints[answer] }] : [];
  });
  const best = Math.max(0, ...scored.map((s) => s.points));
  if (best === 0) return [];
  return scored.filter((s) => s.points === best).slice(0, limit);
}
