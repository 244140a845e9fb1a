import { z } from "zod";

import type { Route } from "./+types/passkey";
import { consoleServices } from "../../features/console/access.server.ts";

const ceremony = z.object({
  intent: z.enum(["options", "verify"]),
  kind: z.enum(["sign-in", "enrol", "add", "confirm"]),
  invite: z.string().max(200).optional(),
  response: z.unknown().optional(),
});

/**
 * The passkey ceremony's JSON route (app/islands/passkey.tsx): options with a challenge
 * the server keeps, then the browser's answer checked. Signing in and enrolling are open
 * to anyone (rate limited before React Router). Confirming needs a session, and adding a
 * passkey a session confirmed with one of its person's passkeys in the last few minutes
 * (403 until then; docs/decisions/178).
 */
export async function action(args: Route.ActionArgs) {
  const { staff, operations } = consoleServices(args);
  const parsed = ceremony.safeParse(await args.request.json().catch(() => null));
  if (!parsed.success) {
    return Response.json(
      { ok: false, message: "That request was not understood." },
      { status: 400 },
    );
  }
  const { intent, kind, invite, response } = parsed.data;
  if ((kind === "add" || kind === "confirm") && !staff) {
    return Response.json({ ok: false, message: "Sign in first." }, { status: 401 });
  }
  if (intent === "options") {
    const result = await operations.ceremonyOptions(kind, invite);
    return Response.json(result, { status: result.ok ? 200 : refusedStatus(result) });
  }
  const result = await operations.completeCeremony(kind, response, invite);
  if (!result.ok) {
    return Response.json(result, { status: kind === "sign-in" ? 401 : refusedStatus(result) });
  }
  const headers = result.setCookie ? { "Set-Cookie": result.setCookie } : undefined;
  return Response.json({ ok: true }, { headers });
}

const refusedStatus = (refusal: object) => ("confirmFirst" in refusal ? 403 : 400);
