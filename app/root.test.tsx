import { renderToString } from "react-dom/server";
import {
  Outlet,
  StaticRouterProvider,
  createStaticHandler,
  createStaticRouter,
} from "react-router";
import { describe, expect, it, vi } from "vitest";

import { ErrorBoundary } from "./root.tsx";

/** Renders the root error boundary as the server would, for a page whose loader threw. */
async function renderFailingPage() {
  const routes = [
    {
      path: "/",
      Component: () => <Outlet />,
      ErrorBoundary,
      loader: () => {
        throw new Error("database on fire");
      },
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("root error boundary", () => {
  it("reads 'Unexpected Application Error!', offers a way home and logs the error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = await renderFailingPage();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Homepage<\/a>/);
    expect(html).not.toContain("database on fire");
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "database on fire" }));
  });
});
