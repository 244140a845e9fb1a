import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";

import { requireStaff } from "./require-staff.server.ts";
import { consoleServicesContext, type StaffMember } from "../../../contract/console.ts";

function args(staff: StaffMember | null, answersData = false, console = true) {
  const context = new RouterContextProvider();
  if (console) context.set(consoleServicesContext, { staff, answersData, operations: {} as never });
  return { context, request: new Request("http://localhost:3001/console") };
}

const viewer: StaffMember = { id: "v", email: "v@clinic.example", role: "viewer" };
const manager: StaffMember = { id: "m", email: "m@clinic.example", role: "manager" };

async function thrown(
  run: () => unknown,
): Promise<{ status?: number; init?: { status?: number }; headers?: Headers }> {
  try {
    run();
  } catch (error) {
    return error as never;
  }
  throw new Error("requireStaff let it through");
}

describe("requireStaff", () => {
  it("sends a document without a session to the sign-in page, and answers data 401", async () => {
    const document = await thrown(() => requireStaff(args(null), "viewer"));
    expect(document.status).toBe(302);
    expect(document.headers?.get("location")).toBe("/console/sign-in");
    expect((await thrown(() => requireStaff(args(null, true), "viewer"))).init?.status).toBe(401);
  });

  it("refuses a viewer on a manager's route with 403", async () => {
    expect((await thrown(() => requireStaff(args(viewer), "manager"))).init?.status).toBe(403);
    expect(requireStaff(args(viewer), "viewer").staff).toBe(viewer);
    expect(requireStaff(args(manager), "manager").staff).toBe(manager);
    expect(requireStaff(args(null), "public").staff).toBeNull();
  });

  it("is 404 where no console services are (the public listener)", async () => {
    expect(
      (await thrown(() => requireStaff(args(null, false, false), "public"))).init?.status,
    ).toBe(404);
  });
});
