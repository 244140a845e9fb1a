import { type RegistrationValues, readSubmission, UPDATES_TICKED } from "./fields.ts";
import { deriveIdempotencyKey } from "./idempotency.server.ts";
import type { RegistrationActionResult } from "./result.ts";
import { usableClientTimestamp, usableIdempotencyKey, validateRegistration } from "./schema.ts";
import type { AppLogger, AppServices } from "../../../contract/app-services.ts";
import {
  type RegisterResult,
  type RegistrationService,
  registrationPaths,
} from "../../../contract/registrations.ts";
import { consentVersionOf, registrationCopy } from "../../content/registration.ts";

export type RegistrationOutcome = {
  result: RegistrationActionResult;
  status: 200 | 400 | 503;
  headers?: Record<string, string>;
  /**
   * Set on success when the form was posted without JavaScript: the route answers
   * 303 See Other to this page, so a refresh does not post again (docs/decisions/089).
   */
  redirectTo?: string;
};

/** How long a client should wait before retrying while the database is unreachable. */
export const storageRetryAfterSeconds = 5;

/** One log line per outcome. Never pass personal data: ids and kinds only. */
export type RegistrationLog = (event: {
  outcome: RegisterResult["kind"] | "invalid" | "honeypot" | "unavailable";
  registrationId?: string;
}) => void;

/** The outcome lines, written through the server's logger from the app context. */
export function registrationLogTo(logger: Pick<AppLogger, "info">): RegistrationLog {
  return (event) => logger.info(event, "registration");
}

/**
 * The server half of the form: validate again with the shared schema, drop honeypot
 * submissions quietly, and store durably before answering success. A submission
 * without a usable idempotency key (a form posted without JavaScript) gets a key
 * derived from its details, so resending it cannot create a second row.
 */
export async function handleRegistration(
  form: FormData | URLSearchParams,
  registrations: RegistrationService,
  log: RegistrationLog,
): Promise<RegistrationOutcome> {
  const submission = readSubmission(form);
  const values: RegistrationValues = {
    name: submission.name,
    email: submission.email,
    phone: submission.phone,
    message: submission.message,
  };
  const wantsUpdates = submission.updates === UPDATES_TICKED;
  // The page's script stamps a key before every send; without JavaScript there is none.
  const sentKey = usableIdempotencyKey(submission.idempotencyKey);
  const success: Pick<RegistrationOutcome, "result" | "status" | "redirectTo"> = {
    result: { status: "success" },
    status: 200,
    ...(sentKey === null ? { redirectTo: registrationPaths.thankYou } : {}),
  };

  // A bot filled the field people cannot see: answer as if all went well, keep nothing.
  if (submission.honeypot !== "") {
    log({ outcome: "honeypot" });
    return success;
  }

  const validation = validateRegistration(values);
  if (!validation.success) {
    log({ outcome: "invalid" });
    return {
      result: { status: "invalid", values, wantsUpdates, fieldErrors: validation.fieldErrors },
      status: 400,
    };
  }

  const fields = validation.data;
  const idempotencyKey = sentKey ?? deriveIdempotencyKey(fields);

  try {
    const stored = await registrations.register({
      ...fields,
      clientTimestamp: usableClientTimestamp(submission.clientTimestamp),
      idempotencyKey,
      consent: { version: consentVersionOf(submission.consentVersion), wantsUpdates },
    });
    log({ outcome: stored.kind, registrationId: stored.registration.id });
    return success;
  } catch (error) {
    // Compared by name: the class lives outside the app bundle (see the team brief).
    if (error instanceof Error && error.name === "StorageUnavailableError") {
      log({ outcome: "unavailable" });
      return {
        result: {
          status: "unavailable",
          values,
          wantsUpdates,
          message: registrationCopy.unavailable,
          retryAfterSeconds: storageRetryAfterSeconds,
        },
        status: 503,
        headers: { "Retry-After": String(storageRetryAfterSeconds) },
      };
    }
    throw error;
  }
}

/**
 * The POST of either action (the page's, /register-interest, and its script's JSON twin,
 * /register-interest/submit): its form, checked and stored by the server's services.
 */
export async function handleRegistrationRequest(
  request: Request,
  { registrations, logger }: Pick<AppServices, "registrations" | "logger">,
): Promise<RegistrationOutcome> {
  // A body that is not a form reads as an empty form, which fails validation (400).
  const form = await request.formData().catch(() => new FormData());
  return handleRegistration(form, registrations, registrationLogTo(logger));
}
