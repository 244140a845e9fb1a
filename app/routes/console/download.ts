import type { Route } from "./+types/download";
import { staffServices } from "../../features/console/access.server.ts";

/** The subject-access copy as a file: what `registrations -- show --email` prints. */
export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const id = (new URL(args.request.url).searchParams.get("id") ?? "").slice(0, 100);
  const copy = id ? await operations.people.view(id, "download") : null;
  if (!copy) {
    return new Response("No registration with that reference.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(`${JSON.stringify(copy, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="subject-access-${id.replace(/[^\w-]/g, "")}.json"`,
    },
  });
}
