import { describe, expect, it } from "vitest";

import { consoleRoutes } from "../../../contract/console.ts";
import routes from "../../routes.ts";

describe("the table of console routes", () => {
  it("lists exactly the console's routes in app/routes.ts", () => {
    const console = routes.find((r) => r.path === "console");
    const paths = (console?.children ?? [])
      .filter((r) => r.path !== "*")
      .map((r) => (r.index ? "/console" : `/console/${r.path ?? ""}`));
    expect(paths.sort()).toEqual(Object.keys(consoleRoutes).sort());
  });

  it("lets no one but managers manage staff or read the audit trail", () => {
    expect(consoleRoutes["/console/staff"]).toEqual({ view: "manager", act: "manager" });
    expect(consoleRoutes["/console/audit"]).toEqual({ view: "manager" });
    const open = Object.entries(consoleRoutes).filter(([, r]) =>
      Object.values(r).includes("public"),
    );
    expect(open.map(([path]) => path).sort()).toEqual([
      "/console/enrol",
      "/console/passkey",
      "/console/sign-in",
    ]);
  });
});
