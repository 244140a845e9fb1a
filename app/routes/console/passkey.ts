import { z } from "zod";

import type { Route } from "./+types/passkey";
import { consoleRoutes } from "../../../contract/console.ts";
import { requireStaff } from "../../features/console/require-staff.server.ts";

const ceremony = z.object({
  intent: z.enum(["options", "verify"]),
  kind: z.enum(["sign-in", "enrol", "add"]),
  invite: z.string().max(200).optional(),
  response: z.unknown().optional(),
});

/**
 * The passkey ceremony's JSON route (app/islands/passkey.tsx): options with a challenge
 * the server keeps, then the browser's answer checked. Signing in and enrolling are open
 * to anyone (rate limited before React Router); adding a passkey needs a session.
 */
export async function action(args: Route.ActionArgs) {
  const { staff, operations } = requireStaff(args, consoleRoutes["/console/passkey"].act);
  const parsed = ceremony.safeParse(await args.request.json().catch(() => null));
  if (!parsed.success) {
    return Response.json(
      { ok: false, message: "That request was not understood." },
      { status: 400 },
    );
  }
  const { intent, kind, invite, response } = parsed.data;
  if (kind === "add" && !staff) {
    return Response.json({ ok: false, message: "Sign in first." }, { status: 401 });
  }
  if (intent === "options") {
    const result = await operations.ceremonyOptions(kind, invite);
    return Response.json(result, { status: result.ok ? 200 : 400 });
  }
  const result = await operations.completeCeremony(kind, response, invite);
  if (!result.ok) return Response.json(result, { status: kind === "sign-in" ? 401 : 400 });
  const headers = result.setCookie ? { "Set-Cookie": result.setCookie } : undefined;
  return Response.json({ ok: true }, { headers });
}
