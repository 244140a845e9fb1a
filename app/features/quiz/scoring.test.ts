import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { MAX_SCORE, percentComplete, riskBandFor, scoreAnswers, topAnswers } from "./scoring.ts";
import { type AnswerOption, answerOptions, quizQuestions } from "../../content/quiz.ts";

/** Ten answers whose points add up to `total`, filling from the first question with Always. */
function answersFor(total: number): AnswerOption[] {
  const byPoints: AnswerOption[] = ["Never", "Rarely", "Sometimes", "Often", "Always"];
  let left = total;
  return Array.from({ length: 10 }, () => {
    const points = Math.min(4, left);
    left -= points;
    return byPoints[points] as AnswerOption;
  });
}
const all = (a: AnswerOption): AnswerOption[] => Array.from({ length: 10 }, () => a);

describe("quiz content", () => {
  it("has ten questions numbered 1 to 10, each a 'how often' question", () => {
    expect(quizQuestions.map((q) => q.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const q of quizQuestions) expect(q.text).toMatch(/^How often .+\?$/);
  });

  it("offers the five answers in order", () => {
    expect(answerOptions).toEqual(["Never", "Rarely", "Sometimes", "Often", "Always"]);
  });
});

describe("scoreAnswers", () => {
  it("scores Never 0, Rarely 1, Sometimes 2, Often 3, Always 4", () => {
    for (const [points, option] of answerOptions.entries()) {
      expect(scoreAnswers(all(option))).toBe(points * 10);
    }
  });

  it("adds mixed answers", () => {
    // Never, Rarely, Sometimes, Often, Always, then the same back to Never.
    const answers = [...answerOptions, ...answerOptions.toReversed()];
    expect(scoreAnswers(answers)).toBe(20);
  });

  it.each<[string, unknown[], RegExp | typeof RangeError]>([
    ["an unanswered question", (answersFor(12) as unknown[]).with(4, undefined), /Question 5/],
    ["nine answers", answersFor(5).slice(0, 9), RangeError],
    ["eleven answers", [...answersFor(5), "Never"], RangeError],
    [
      "an answer that is not one of the five",
      (answersFor(8) as unknown[]).with(0, "Sometimes!"),
      /Question 1/,
    ],
  ])("rejects %s", (_, answers, error) => {
    expect(() => scoreAnswers(answers as AnswerOption[])).toThrow(error);
  });
});

describe("riskBandFor", () => {
  it.each([
    [0, "low"],
    [10, "low"],
    [11, "moderate"],
    [15, "moderate"],
    [20, "moderate"],
    [21, "higher"],
    [40, "higher"],
  ] as const)("puts a total of %i in the %s band", (total, band) => {
    expect(riskBandFor(scoreAnswers(answersFor(total)))).toBe(band);
  });

  it("rejects totals no answers can give", () => {
    for (const bad of [-1, 41, 10.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => riskBandFor(bad)).toThrow(RangeError);
    }
  });

  it("gives every possible total exactly one band, rising with the total", () => {
    const order = { low: 0, moderate: 1, higher: 2 };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...answerOptions), { minLength: 10, maxLength: 10 }),
        fc.array(fc.constantFrom(...answerOptions), { minLength: 10, maxLength: 10 }),
        (a, b) => {
          const [ta, tb] = [scoreAnswers(a), scoreAnswers(b)];
          expect(ta).toBeGreaterThanOrEqual(0);
          expect(ta).toBeLessThanOrEqual(MAX_SCORE);
          if (ta <= tb) expect(order[riskBandFor(ta)]).toBeLessThanOrEqual(order[riskBandFor(tb)]);
        },
      ),
    );
  });
});

describe("percentComplete", () => {
  it("counts answered questions out of ten", () => {
    expect(percentComplete(Array.from({ length: 10 }, () => undefined))).toBe(0);
    const some = ["Often", "Never", "Always", ...Array.from({ length: 7 }, () => undefined)];
    expect(percentComplete(some as (AnswerOption | undefined)[])).toBe(30);
    expect(percentComplete(answersFor(17))).toBe(100);
  });
});

describe("topAnswers", () => {
  it("lists the answers at the highest score, in question order, at most three", () => {
    const answers = all("Rarely");
    answers[4] = "Often";
    answers[8] = "Often";
    expect(topAnswers(answers).map((s) => [s.question.id, s.answer])).toEqual([
      [5, "Often"],
      [9, "Often"],
    ]);
    expect(topAnswers(all("Always"))).toHaveLength(3);
  });

  it("lists nothing when every answer is Never", () => {
    expect(topAnswers(all("Never"))).toEqual([]);
  });
});
