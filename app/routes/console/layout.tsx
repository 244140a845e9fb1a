import {
  isRouteErrorResponse,
  Outlet,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";

import type { Route } from "./+types/layout";
import { consoleAccess, consoleServices } from "../../features/console/access.server.ts";
import { ConsoleShell, consoleTitle } from "../../features/console/console-shell.tsx";

/** Access is checked here once for every console route, from the route table (decision 182). */
export const middleware: Route.MiddlewareFunction[] = [consoleAccess];

export function loader(args: Route.LoaderArgs) {
  const { staff } = consoleServices(args);
  return { staff: staff ? { email: staff.email, role: staff.role } : null };
}

/** Every console page: the console's frame, never the public one (docs/decisions/133). */
export default function ConsoleLayout() {
  const { staff } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  return (
    <ConsoleShell staff={staff} current={pathname}>
      <Outlet />
    </ConsoleShell>
  );
}

const refusals: Record<number, { title: string; text: string }> = {
  403: {
    title: "Not for your role",
    text: "Only managers can use this page. Nothing was changed. Ask a manager if you need it.",
  },
  404: { title: "Page not found", text: "There is no console page at this address." },
};

export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData<typeof loader>("routes/console/layout");
  const { pathname } = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const refusal = refusals[status] ?? {
    title: "Something went wrong",
    text: "The console could not show this page. Please try again in a moment.",
  };
  // A refusal by the access check (middleware above) comes before this layout's loader.
  const refused = isRouteErrorResponse(error) ? (error.data as typeof layout) : undefined;
  return (
    <ConsoleShell staff={layout?.staff ?? refused?.staff ?? null} current={pathname}>
      <title>{consoleTitle(refusal.title)}</title>
      <h1 className="text-3xl">{refusal.title}</h1>
      <p className="mt-4 text-lg text-ink-soft">{refusal.text}</p>
      <p className="mt-6">
        <a href="/console" className="font-semibold text-brand-800 underline underline-offset-4">
          Back to the overview
        </a>
      </p>
    </ConsoleShell>
  );
}
