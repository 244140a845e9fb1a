import { registrationIsland } from "../features/registration/registration-form.tsx";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(registrationIsland);
