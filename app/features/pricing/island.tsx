import { CostCalculator } from "./cost-calculator.tsx";
import { defineIsland } from "../../lib/island.tsx";
import { Toaster } from "../../lib/toaster.tsx";

/** The calculator and the toasts of its "Copy link" button. */
function PricingCalculator({ search }: { search: string }) {
  return (
    <>
      <CostCalculator search={search} />
      <Toaster />
    </>
  );
}

/** The calculator is the one part of /pricing that runs in the browser (docs/decisions/126). */
export const pricingIsland = defineIsland("pricing", PricingCalculator);
