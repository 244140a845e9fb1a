import { quizIsland } from "../features/quiz/symptom-quiz.tsx";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(quizIsland);
