import { useId } from "react";

import { clinic } from "../../content/clinic.ts";
import { comparisonRows } from "../../content/pricing.ts";

/**
 * Our clinic, other private clinics and the NHS side by side. A real table with
 * column and row headers; on a phone it scrolls sideways inside a labelled,
 * focusable region while the row headers stay put.
 */
export function ComparisonTable() {
  const captionId = useId();
  return (
    <div>
      {/* A scrollable region must be reachable by keyboard to scroll it (WCAG 2.1.1). */}
      <div
        role="region"
        aria-labelledby={captionId}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="overflow-x-auto rounded-card border border-line bg-surface shadow-card"
      >
        <table className="w-full min-w-[34rem] border-collapse text-left text-[0.95rem]">
          <caption id={captionId} className="sr-only">
            How {clinic.name} compares with other private clinics and the NHS
          </caption>
          <thead>
            <tr className="border-b border-line bg-sand">
              <th
                scope="col"
                className="sticky left-0 w-32 bg-sand px-4 py-3.5 font-semibold sm:w-[26%]"
              >
                <span className="sr-only">What we compare</span>
              </th>
              <th scope="col" className="bg-brand-100 px-4 py-3.5 font-semibold text-brand-900">
                {clinic.name}
              </th>
              <th scope="col" className="px-4 py-3.5 font-semibold">
                Other private clinics
              </th>
              <th scope="col" className="px-4 py-3.5 font-semibold">
                NHS
              </th>
            </tr>
          </thead>
          <tbody>
            {comparisonRows.map((row) => (
              <tr key={row.category} className="border-b border-line last:border-b-0">
                <th
                  scope="row"
                  className="sticky left-0 bg-surface px-4 py-4 align-top text-sm font-semibold text-ink sm:text-[0.95rem]"
                >
                  {row.category}
                </th>
                <td className="bg-brand-50/70 px-4 py-4 align-top font-medium text-brand-900">
                  {row.ourClinic}
                </td>
                <td className="px-4 py-4 align-top text-ink-soft">{row.otherClinics}</td>
                <td className="px-4 py-4 align-top text-ink-soft">{row.nhs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-sm text-muted sm:hidden">
        Scroll the table sideways to see every column.
      </p>
    </div>
  );
}
