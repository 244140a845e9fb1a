import { quizIsland } from "../features/quiz/island.ts";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(quizIsland);
