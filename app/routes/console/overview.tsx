import type { Route } from "./+types/overview";
import type { SourceBreakdown } from "../../../contract/console.ts";
import { overviewCopy as copy } from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { type Bar, BarChart } from "../../features/console/bar-chart.tsx";
import { consoleMeta } from "../../features/console/console-shell.tsx";

export function loader(args: Route.LoaderArgs) {
  return staffServices(args).operations.overview();
}

export const meta: Route.MetaFunction = () => consoleMeta("Overview");

const calendar = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...options });
const dayLabel = calendar({ weekday: "short", day: "numeric", month: "short" });
const weekLabel = calendar({ day: "numeric", month: "short", year: "numeric" });
const londonTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const noon = (date: string) => new Date(`${date}T12:00:00Z`);
const when = (at: string | null, none: string) =>
  at === null ? none : londonTime.format(new Date(at));

function busiest(bars: Bar[]): string {
  const top = bars.reduce<Bar | null>(
    (best, b) => (best && best.count >= b.count ? best : b),
    null,
  );
  return copy.highest(top?.count ?? 0, top?.label ?? "");
}

/** Label and number pairs as a definition list of plain cards. */
function Figures({ items }: { items: [string, number | string][] }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-card border border-line bg-surface px-4 py-3">
          <dt className="text-sm text-ink-soft">{label}</dt>
          <dd className="mt-1 text-xl font-semibold text-ink tabular-nums sm:text-2xl">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function CountTable({
  caption,
  labelColumn,
  rows,
}: {
  caption: string;
  labelColumn: string;
  rows: { label: string; count: number }[];
}) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="pb-2 text-left text-base font-semibold text-ink">{caption}</caption>
      <thead>
        <tr className="border-b border-line">
          <th scope="col" className="py-2 pr-3">
            {labelColumn}
          </th>
          <th scope="col" className="py-2 text-right">
            {copy.countColumn}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-b border-line">
            <th scope="row" className="py-1.5 pr-3 font-normal break-words">
              {row.label}
            </th>
            <td className="py-1.5 text-right tabular-nums">{row.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function sourceRows(breakdown: SourceBreakdown, none: string) {
  return [
    ...breakdown.top.map((r) => ({ label: r.value ?? none, count: r.count })),
    ...(breakdown.others > 0 ? [{ label: copy.others, count: breakdown.others }] : []),
    { label: copy.notRecorded, count: breakdown.notRecorded },
  ];
}

/** The waiting list at a glance (issue 31, point 4; docs/decisions/134), for every role. */
export default function Overview({ loaderData: overview }: Route.ComponentProps) {
  const { totals, mail, spreadsheet } = overview;
  const days = overview.days.map((d) => ({
    key: d.date,
    label: dayLabel.format(noon(d.date)),
    count: d.count,
  }));
  const weeks = overview.weeks.map((w) => ({
    key: w.monday,
    label: weekLabel.format(noon(w.monday)),
    count: w.count,
  }));
  const rate =
    overview.confirmationRate === null
      ? copy.noRate
      : copy.rate(`${String(Math.round(overview.confirmationRate * 100))}%`);
  return (
    <>
      <h1 className="text-3xl">Overview</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">{copy.intro}</p>
      {overview.staffWaiting > 0 ? (
        <p className="mt-4 max-w-2xl rounded-card border border-line bg-warning-bg p-4 font-semibold text-warning">
          <a href="/console/staff" className="underline underline-offset-4">
            {copy.staffWaiting(overview.staffWaiting)}
          </a>
        </p>
      ) : null}

      <section aria-labelledby="totals" className="mt-10">
        <h2 id="totals" className="text-2xl">
          {copy.totalsHeading}
        </h2>
        <Figures
          items={[
            [copy.totals.registered, totals.registered],
            [copy.totals.confirmed, totals.confirmed],
            [copy.totals.unconfirmed, totals.unconfirmed],
            [copy.totals.unsubscribed, totals.unsubscribed],
            [copy.totals.erased, totals.erased],
            [copy.totals.askedForNews, totals.askedForNews],
          ]}
        />
        <p className="mt-4 text-lg" data-testid="confirmation-rate">
          {rate}
        </p>
      </section>

      <section aria-labelledby="per-day" className="mt-12">
        <h2 id="per-day" className="text-2xl">
          {copy.daysHeading}
        </h2>
        <p className="mt-2 text-sm text-ink-soft">{copy.chartNote}</p>
        <BarChart
          bars={days}
          labelColumn={copy.dayColumn}
          countColumn={copy.countColumn}
          caption={copy.daysHeading}
          note={busiest(days)}
        />
      </section>

      <section aria-labelledby="per-week" className="mt-12">
        <h2 id="per-week" className="text-2xl">
          {copy.weeksHeading}
        </h2>
        <p className="mt-2 text-sm text-ink-soft">{copy.chartNote}</p>
        <BarChart
          bars={weeks}
          labelColumn={copy.weekColumn}
          countColumn={copy.countColumn}
          caption={copy.weeksHeading}
          note={busiest(weeks)}
        />
      </section>

      <section aria-labelledby="sources" className="mt-12">
        <h2 id="sources" className="text-2xl">
          {copy.sourcesHeading}
        </h2>
        <p className="mt-2 max-w-2xl text-ink-soft">{copy.sourcesNote}</p>
        <div className="mt-4 grid gap-8 md:grid-cols-2">
          {(["source", "medium", "campaign", "referrer"] as const).map((column) => (
            <CountTable
              key={column}
              caption={copy.sourceTables[column].caption}
              labelColumn={copy.valueColumn}
              rows={sourceRows(overview.sources[column], copy.sourceTables[column].none)}
            />
          ))}
        </div>
      </section>

      <section aria-labelledby="mail" className="mt-12">
        <h2 id="mail" className="text-2xl">
          {copy.mailHeading}
        </h2>
        <Figures
          items={[
            [copy.mail.queued, mail.queued],
            [copy.mail.sent, mail.sent],
            [copy.mail.failed, mail.failed],
            [copy.mail.suppressed, mail.suppressed],
          ]}
        />
        <div className="mt-6 max-w-xl">
          {mail.failedByReply.length === 0 ? (
            <p>{copy.noFailures}</p>
          ) : (
            <CountTable
              caption={copy.failuresCaption}
              labelColumn={copy.replyColumn}
              rows={mail.failedByReply.map((r) => ({
                label: copy.replies[r.reply] ?? copy.reply(r.reply),
                count: r.count,
              }))}
            />
          )}
        </div>
      </section>

      <section aria-labelledby="spreadsheet" className="mt-12">
        <h2 id="spreadsheet" className="text-2xl">
          {copy.spreadsheetHeading}
        </h2>
        <Figures
          items={[
            [copy.spreadsheet.waiting, spreadsheet.waiting],
            [
              copy.spreadsheet.oldestWaiting,
              when(spreadsheet.oldestWaitingAt, copy.spreadsheet.nothingWaiting),
            ],
            [copy.spreadsheet.failed, spreadsheet.failed],
            [
              copy.spreadsheet.oldestFailed,
              when(spreadsheet.oldestFailedAt, copy.spreadsheet.nothingFailed),
            ],
          ]}
        />
        {spreadsheet.failed === 0 ? <p className="mt-4">{copy.spreadsheetFine}</p> : null}
      </section>
    </>
  );
}
