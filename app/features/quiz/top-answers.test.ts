import { describe, expect, it } from "vitest";

import { topAnswers } from "./top-answers.ts";
import type { AnswerOption } from "../../content/quiz.ts";

const all = (a: AnswerOption): AnswerOption[] => Array.from({ length: 10 }, () => a);

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
