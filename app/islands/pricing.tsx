import { pricingIsland } from "../features/pricing/island.tsx";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(pricingIsland);
