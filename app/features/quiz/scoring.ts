import {
  type AnswerOption,
  type RiskBandKey,
  answerOptions,
  quizQuestions,
} from "../../content/quiz.ts";

/** Specification section 9: an answer scores its place, Never 0 up to Always 4. */
type Points = Record<AnswerOption, number>;
export const answerPoints = Object.fromEntries(answerOptions.map((o, i) => [o, i])) as Points;

export const QUESTION_COUNT = 10;
export const MAX_SCORE = QUESTION_COUNT * answerPoints.Always;

/** Inclusive at both ends. */
export const riskBands: readonly { key: RiskBandKey; min: number; max: number }[] = [
  { key: "low", min: 0, max: 10 },
  { key: "moderate", min: 11, max: 20 },
  { key: "higher", min: 21, max: MAX_SCORE },
];

export function isAnswerOption(value: unknown): value is AnswerOption {
  return typeof value === "string" && (answerOptions as readonly string[]).includes(value);
}

export function scoreAnswers(answers: readonly (AnswerOption | undefined)[]): number {
  if (answers.length !== QUESTION_COUNT) {
    throw new RangeError(`Expected ${QUESTION_COUNT} answers, got ${answers.length}`);
  }
  let total = 0;
  for (const [index, answer] of answers.entries()) {
    if (!isAnswerOption(answer)) {
      throw new RangeError(`Question ${index + 1} has no valid answer`);
    }
    total += answerPoints[answer];
  }
  return total;
}

export function riskBandFor(total: number): RiskBandKey {
  if (!Number.isInteger(total) || total < 0 || total > MAX_SCORE) {
    throw new RangeError(`A quiz total must be a whole number from 0 to ${MAX_SCORE}`);
  }
  // The bands cover 0..MAX_SCORE without gaps (tested), so the last one is never a fallback.
  return riskBands.find((b) => total <= b.max)?.key ?? "higher";
}

export function percentComplete(answers: readonly (AnswerOption | undefined)[]): number {
  const answered = answers.filter(isAnswerOption).length;
  return Math.round((answered / QUESTION_COUNT) * 100);
}

/** Every answer at the top score given (above Never), in question order. */
export function topAnswers(answers: readonly (AnswerOption | undefined)[], limit = 3) {
  const scored = quizQuestions.flatMap((question, i) => {
    const answer = answers[i];
    return isAnswerOption(answer) ? [{ question, answer, points: answerPoints[answer] }] : [];
  });
  const best = Math.max(0, ...scored.map((s) => s.points));
  if (best === 0) return [];
  return scored.filter((s) => s.points === best).slice(0, limit);
}
