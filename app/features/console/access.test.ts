import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";

import { consoleAccess, staffServices } from "./access.server.ts";
import {
  type ConsoleServices,
  consoleServicesContext,
  type StaffMember,
} from "../../../contract/console.ts";

function args(services: Omit<ConsoleServices, "operations"> | null) {
  const context = new RouterContextProvider();
  if (services) context.set(consoleServicesContext, { ...services, operations: {} as never });
  const request = new Request("http://localhost:3001/console");
  return { context, request, url: new URL(request.url), pattern: "/console", params: {} };
}

const viewer: StaffMember = { id: "v", email: "v@clinic.example", role: "viewer" };
const passed = new Response("the route's answer");
const next = () => Promise.resolve(passed);

async function thrown(
  run: () => unknown,
): Promise<{ status?: number; init?: { status?: number }; headers?: Headers; data?: unknown }> {
  try {
    await run();
  } catch (error) {
    return error as never;
  }
  throw new Error("consoleAccess let it through");
}

describe("consoleAccess", () => {
  it("refuses what the gate refused for the role with 403, and lets the rest through", async () => {
    const refused = await thrown(() =>
      consoleAccess(args({ staff: viewer, answersData: false, refused: "role" }), next),
    );
    expect(refused.init?.status).toBe(403);
    // For the 403 page's frame, which no loader ran for.
    expect(refused.data).toMatchObject({ staff: { email: viewer.email, role: "viewer" } });
    const open = args({ staff: viewer, answersData: false, refused: null });
    expect(await consoleAccess(open, next)).toBe(passed);
    expect(staffServices(open).staff).toBe(viewer);
  });

  it("is 404 where no console services are (the public listener)", async () => {
    expect((await thrown(() => consoleAccess(args(null), next))).init?.status).toBe(404);
  });
});
