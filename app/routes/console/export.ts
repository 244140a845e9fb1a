import type { Route } from "./+types/export";
import { staffServices } from "../../features/console/access.server.ts";

/**
 * Every registration as CSV (RFC 4180, formulas neutralised), as `registrations -- export`;
 * over the daily limit, a plain 429 (docs/decisions/177).
 */
export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const csv = await operations.people.exportCsv();
  if (typeof csv !== "string") {
    return new Response(`${csv.message}\n`, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="registrations-${day}.csv"`,
    },
  });
}
