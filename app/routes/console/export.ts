import type { Route } from "./+types/export";
import { consoleRoutes } from "../../../contract/console.ts";
import { requireStaff } from "../../features/console/require-staff.server.ts";

/** Every registration as CSV (RFC 4180, formulas neutralised), as `registrations -- export`. */
export async function loader(args: Route.LoaderArgs) {
  const { operations } = requireStaff(args, consoleRoutes["/console/people/export"].view);
  const csv = await operations.people.exportCsv();
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="registrations-${day}.csv"`,
    },
  });
}
