import type { RegistrationActionResult } from "./result.ts";
import { HttpFailure, TransientFailure } from "./submit-with-retry.ts";
import { registrationPaths } from "../../../contract/registrations.ts";

const statuses: ReadonlySet<unknown> = new Set(["success", "invalid", "unavailable"]);

function isResult(answer: unknown): answer is RegistrationActionResult {
  return (
    typeof answer === "object" && answer !== null && statuses.has(Reflect.get(answer, "status"))
  );
}

/** Retry-After in milliseconds, from the header or a guard's JSON `retryAfterSeconds`. */
function retryAfterMs(response: Response, answer: unknown): number | null {
  const fromBody =
    typeof answer === "object" && answer !== null ? Reflect.get(answer, "retryAfterSeconds") : null;
  const seconds = Number(response.headers.get("Retry-After") ?? fromBody ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/**
 * One attempt to store a registration: the form's fields, posted as the browser would
 * post them, to the JSON twin of the form's action (POST /register-interest/submit).
 * Resolves with the server's answer (stored, or the fields' errors); throws what
 * submitWithRetry sorts: TransientFailure when storage is down, HttpFailure for any other
 * answer (a guard's refusal, a proxy's error page), a TypeError when the network fails.
 */
export async function sendRegistration(form: FormData): Promise<RegistrationActionResult> {
  const body = new URLSearchParams();
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") body.append(name, value);
  }
  const response = await fetch(registrationPaths.submit, {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!isResult(answer)) throw new HttpFailure(response.status, retryAfterMs(response, answer));
  if (answer.status === "unavailable") {
    throw new TransientFailure(answer.message, answer.retryAfterSeconds * 1000);
  }
  return answer;
}
