import { pricingIsland } from "../features/pricing/cost-calculator.tsx";
import { hydrateIsland } from "../lib/hydrate-island.tsx";

hydrateIsland(pricingIsland);
