import { SymptomQuiz } from "./symptom-quiz.tsx";
import { defineIsland } from "../../lib/island.tsx";

/** The quiz is the one part of /quiz that runs in the browser (docs/decisions/126). */
export const quizIsland = defineIsland("quiz", SymptomQuiz);
