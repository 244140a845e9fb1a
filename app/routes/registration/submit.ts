import type { Route } from "./+types/submit";
import { handleRegistrationRequest } from "../../features/registration/register.server.ts";
import { appServicesContext } from "../../lib/app-context.ts";

/**
 * POST /register-interest/submit: the registration form's script sends here, and gets
 * the action's answer as JSON (stored, the fields' errors, or storage unavailable with
 * Retry-After). The guards in front of it are the form's (server/registrations/guards.ts).
 * The page itself, /register-interest, keeps the form's action without JavaScript
 * (docs/decisions/126).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { result, status, headers } = await handleRegistrationRequest(
    request,
    context.get(appServicesContext),
  );
  return Response.json(result, { status, headers });
}

/** Nothing to GET here. */
export function loader() {
  return new Response(
    "Method Not Allowed: this address only takes the registration form's POST.\n",
    {
      status: 405,
      headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
    },
  );
}
