import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { type ConsoleRoute, consoleNav, consoleRoutes } from "../../../contract/console.ts";
import routes from "../../routes.ts";

const rows = Object.entries<ConsoleRoute>(consoleRoutes);
/** Not pages of their own: the frame around every page, and every unknown path. */
const frame = ["layout.tsx", "not-found.tsx"];
const modules = readdirSync(import.meta.dirname).filter(
  (file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts") && !frame.includes(file),
);
const exports = (file: string, name: string) =>
  new RegExp(`^export (async )?(function|const) ${name}\\b`, "m").test(
    readFileSync(path.join(import.meta.dirname, file), "utf8"),
  );

describe("the table of console routes", () => {
  it("is every console route of app/routes.ts, and nothing else is", () => {
    const console = routes.find((r) => r.path === "console");
    expect(console?.file).toBe("routes/console/layout.tsx");
    const served = (console?.children ?? []).map((r) => [
      r.index ? "/console" : `/console/${r.path ?? ""}`,
      r.file,
    ]);
    expect(served).toEqual([
      ...rows.map(([at, route]) => [at, `routes/console/${route.file}`]),
      ["/console/*", "routes/console/not-found.tsx"],
    ]);
  });

  it("has a row for every route module, whose loader and action it names", () => {
    expect(modules.sort()).toEqual(rows.map(([, route]) => route.file).sort());
    for (const [at, route] of rows) {
      expect(exports(route.file, "loader"), `${at}: a loader, and only with view`).toBe(
        route.view !== undefined,
      );
      expect(exports(route.file, "action"), `${at}: an action, and only with act`).toBe(
        route.act !== undefined,
      );
    }
  });

  it("is checked once, by the layout that every console route is inside", () => {
    expect(exports("layout.tsx", "middleware")).toBe(true);
    for (const file of [...modules, ...frame]) {
      const source = readFileSync(path.join(import.meta.dirname, file), "utf8");
      expect(source, `${file} checks no role itself`).not.toMatch(/\brole\s*[!=]==/);
    }
  });

  it("lets no one but managers manage staff or read the audit trail", () => {
    expect(consoleRoutes["/console/staff"]).toMatchObject({ view: "manager", act: "manager" });
    expect(consoleRoutes["/console/audit"]).toMatchObject({ view: "manager" });
    expect(consoleRoutes["/console/audit"]).not.toHaveProperty("act");
    const open = rows.filter(([, r]) => r.view === "public" || r.act === "public");
    expect(open.map(([at]) => at).sort()).toEqual([
      "/console/enrol",
      "/console/passkey",
      "/console/sign-in",
    ]);
  });

  it("shows each role the pages it may open, in the table's order", () => {
    const labels = (role: "viewer" | "manager") => consoleNav(role).map((item) => item.label);
    expect(labels("viewer")).toEqual(["Overview", "My passkeys"]);
    expect(labels("manager")).toEqual([
      "Overview",
      "People",
      "Staff",
      "Announcements",
      "Audit trail",
      "My passkeys",
    ]);
  });
});
