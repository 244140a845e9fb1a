const whole = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const withPence = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });

/**
 * Pounds for display: whole amounts without pence (£47, £1,644), others with
 * two decimals (£6.50). See docs/decisions/023-pricing-money-format.md.
 */
export function formatGBP(amount: number): string {
  return Number.isInteger(amount) ? whole.format(amount) : withPence.format(amount);
}
