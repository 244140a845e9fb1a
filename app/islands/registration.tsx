import { registrationIsland } from "../features/registration/island.tsx";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(registrationIsland);
