/**
 * £47, £1,644, £6.50 (decision 023). Not Intl.NumberFormat: a page's first Intl formatter loads
 * ICU's locale data, most of /pricing's long task on a slow CPU (decision 132). The output is
 * the en-GB GBP formatter's below a trillion pounds (money.test.ts compares them).
 */
export function formatGBP(amount: number): string {
  const sign = amount < 0 || Object.is(amount, -0) ? "-" : "";
  // Like Intl, round the shortest decimal that reads back as the amount ("0.015", not the
  // binary 0.01499…), half away from zero. Below 1e-6 String() switches to "1e-7": zero.
  const digits = Math.abs(amount) < 1e-6 ? "0" : String(Math.abs(amount));
  const [whole = "0", fraction] = digits.split(".");
  let pounds = whole;
  let pence = "";
  if (!Number.isInteger(amount)) {
    const third = fraction ?? "";
    let inPence = Number(whole + third.padEnd(2, "0").slice(0, 2));
    if ((third[2] ?? "0") >= "5") inPence += 1;
    pounds = String(Math.floor(inPence / 100));
    pence = `.${String(inPence % 100).padStart(2, "0")}`;
  }
  return `${sign}£${pounds.replace(/\B(?=(\d{3})+$)/g, ",")}${pence}`;
}
