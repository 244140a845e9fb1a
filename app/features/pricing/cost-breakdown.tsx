import { lineAmount, sumLines } from "./cost.ts";
import { Card } from "../../components/ui/card.tsx";
import { formatGBP } from "../../content/money.ts";
import { costYears, keyPrices } from "../../content/pricing.ts";

/** The headline prices, then the worked first and second year, line by line. */
export function CostBreakdown() {
  return (
    <div className="space-y-10">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {keyPrices.map((p) => (
          <li
            key={p.service}
            className="rounded-card border border-line bg-surface p-5 shadow-card"
          >
            <p className="text-sm font-semibold text-muted">{p.service}</p>
            <p className="mt-1 font-serif text-2xl font-semibold text-brand-900">{p.price}</p>
            <p className="mt-2 text-sm leading-relaxed text-ink-soft">{p.detail}</p>
          </li>
        ))}
      </ul>

      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        {costYears.map((year) => {
          const total = sumLines(year.lines);
          return (
            <Card key={year.id} padding="none">
              <div className="flex items-baseline justify-between gap-4 border-b border-line px-5 py-5 sm:px-6">
                <h3 id={`${year.id}-heading`} className="text-2xl">
                  {year.title}
                </h3>
                <p className="font-serif text-3xl font-semibold text-brand-900 tabular-nums">
                  {formatGBP(year.statedTotal)}
                </p>
              </div>
              <p className="px-5 pt-4 text-sm leading-relaxed text-ink-soft sm:px-6">
                {year.summary}
              </p>
              <table
                aria-labelledby={`${year.id}-heading`}
                className="mt-2 w-full text-left text-sm"
              >
                <thead className="sr-only">
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col" className="hidden sm:table-cell">
                      Quantity and price
                    </th>
                    <th scope="col">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {year.lines.map((line) => (
                    <tr key={line.service} className="border-b border-line/70">
                      <th scope="row" className="py-3 pr-2 pl-5 align-top font-normal sm:pl-6">
                        <span className="block font-semibold text-ink">{line.service}</span>
                        <span className="block text-muted">{line.description}</span>
                        {line.quantity > 1 ? (
                          <span className="mt-0.5 block text-muted tabular-nums sm:hidden">
                            {line.quantity} × {formatGBP(line.unitPrice)}
                          </span>
                        ) : null}
                      </th>
                      <td className="hidden px-2 py-3 text-right align-top whitespace-nowrap text-muted tabular-nums sm:table-cell">
                        {line.quantity > 1
                          ? `${line.quantity} × ${formatGBP(line.unitPrice)}`
                          : null}
                      </td>
                      <td className="py-3 pr-5 pl-2 text-right align-top font-medium whitespace-nowrap tabular-nums sm:pr-6">
                        {formatGBP(lineAmount(line))}
                      </td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" className="py-4 pl-5 text-base font-semibold sm:pl-6">
                      {year.title} total
                    </th>
                    <td className="hidden sm:table-cell" />
                    <td className="py-4 pr-5 text-right text-base font-semibold tabular-nums sm:pr-6">
                      {formatGBP(total)}
                    </td>
                  </tr>
                </tfoot>
              </table>
            </Card>
          );
        })}
      </div>
    </div>
  );
}
