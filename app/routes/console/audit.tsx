import { data } from "react-router";

import type { Route } from "./+types/audit";
import { approvedAloneWords, auditActions } from "../../content/console.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const given = new URL(args.request.url).searchParams.get("page") ?? "1";
  const page = Number(given);
  if (!Number.isInteger(page) || page < 1 || page > 100_000) {
    throw data("No such page of the audit trail.", { status: 404 });
  }
  return { page, ...(await operations.auditPage(page)) };
}

export const meta: Route.MetaFunction = () => consoleMeta("Audit trail");

const what = (action: string, detail: Record<string, unknown>) =>
  action === "announcement-approved" && detail.alone === true
    ? `${auditActions[action]} (${approvedAloneWords.toLowerCase()})`
    : (auditActions[action] ?? action);

const describe = (detail: Record<string, string | number | boolean | null>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(", ");

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { page, entries, hasMore } = loaderData;
  return (
    <>
      <h1 className="text-3xl">Audit trail</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">
        Every sign-in, failed sign-in and change made in the console or with the staff command,
        newest first. It never holds a registrant&apos;s address, and it is kept for the retention
        period plus 12 months.
      </p>
      {/* A keyboard can scroll it at 390 px: it is a focusable, named region. */}
      <div
        className="mt-6 overflow-x-auto"
        role="region"
        aria-label="Audit trail entries"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus (WCAG 2.1.1)
        tabIndex={0}
      >
        <table className="w-full text-left text-sm sm:text-base">
          <caption className="sr-only">Audit trail, page {page}</caption>
          <thead>
            <tr className="border-b border-line">
              <th scope="col" className="py-2 pr-4">
                When (UTC)
              </th>
              <th scope="col" className="py-2 pr-4">
                Who
              </th>
              <th scope="col" className="py-2 pr-4">
                What
              </th>
              <th scope="col" className="py-2 pr-4">
                Registration
              </th>
              <th scope="col" className="py-2">
                Details
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, i) => (
              <tr key={`${entry.at}-${String(i)}`} className="border-b border-line align-top">
                <td className="py-2 pr-4 whitespace-nowrap">
                  {entry.at.slice(0, 19).replace("T", " ")}
                </td>
                <td className="py-2 pr-4 break-all">{entry.staff ?? "Unknown"}</td>
                <td className="py-2 pr-4">{what(entry.action, entry.detail)}</td>
                <td className="py-2 pr-4 break-all">{entry.registrationId ?? "None"}</td>
                <td className="py-2 break-all">{describe(entry.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries.length === 0 ? <p className="mt-4">Nothing recorded yet.</p> : null}
      <nav aria-label="Audit trail pages" className="mt-6 flex gap-6">
        {page > 1 ? (
          <a
            href={`/console/audit?page=${String(page - 1)}`}
            className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
          >
            Newer entries
          </a>
        ) : null}
        {hasMore ? (
          <a
            href={`/console/audit?page=${String(page + 1)}`}
            className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
          >
            Older entries
          </a>
        ) : null}
      </nav>
    </>
  );
}
