import { createHash } from "node:crypto";

import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type MiddlewareFunction,
  redirect,
} from "react-router";

import {
  formatUuid,
  normaliseForKey,
  type RegistrationActionResult,
  type RegistrationFields,
  type RegistrationValues,
  readSubmission,
  UPDATES_TICKED,
  usableAttribution,
  usableClientTimestamp,
  usableIdempotencyKey,
  validateRegistration,
} from "./form.ts";
import {
  appServicesContext,
  type Logger,
  type RegistrationService,
  registrationPaths,
} from "../../../contract/registrations.ts";
import { consentVersionOf, registrationCopy } from "../../content/registration.ts";

export type RegistrationOutcome = {
  result: RegistrationActionResult;
  status: 200 | 400 | 503;
  headers?: Record<string, string>;
  /** Without JavaScript a success is a 303 here, so a refresh cannot post again (decision 089). */
  redirectTo?: string;
};

export const storageRetryAfterSeconds = 5;

/** The same details give the same UUIDv8, so a resend stores one row (decisions 036, 092). */
export function deriveIdempotencyKey(fields: RegistrationFields): string {
  const bytes = createHash("sha256")
    .update(`registration-v1:${normaliseForKey(fields)}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** One log line per outcome, with ids and kinds only. */
export async function handleRegistration(
  form: FormData | URLSearchParams,
  registrations: RegistrationService,
  logger: Pick<Logger, "info">,
): Promise<RegistrationOutcome> {
  const log = (outcome: string, registrationId?: string) =>
    logger.info({ outcome, registrationId }, "registration");
  const submission = readSubmission(form);
  const { name, email, phone, message } = submission;
  const values: RegistrationValues = { name, email, phone, message };
  const wantsUpdates = submission.updates === UPDATES_TICKED;
  const sentKey = usableIdempotencyKey(submission.idempotencyKey);
  const success: RegistrationOutcome = {
    result: { status: "success" },
    status: 200,
    ...(sentKey === null ? { redirectTo: registrationPaths.thankYou } : {}),
  };

  if (submission.honeypot !== "") {
    log("honeypot");
    return success;
  }

  const validation = validateRegistration(values);
  if (!validation.success) {
    log("invalid");
    return {
      result: { status: "invalid", values, wantsUpdates, fieldErrors: validation.fieldErrors },
      status: 400,
    };
  }

  try {
    const stored = await registrations.register({
      ...validation.data,
      clientTimestamp: usableClientTimestamp(submission.clientTimestamp),
      idempotencyKey: sentKey ?? deriveIdempotencyKey(validation.data),
      consent: { version: consentVersionOf(submission.consentVersion), wantsUpdates },
      attribution: usableAttribution(submission),
    });
    log(stored.kind, stored.registration.id);
    return success;
  } catch (error) {
    // By name: the class the server throws is not the app bundle's copy.
    if (error instanceof Error && error.name === "StorageUnavailableError") {
      log("unavailable");
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

async function handleRegistrationRequest({ request, context }: ActionFunctionArgs) {
  const { registrations, logger } = context.get(appServicesContext);
  // A body that is not a form reads as an empty form, which fails validation (400).
  const form = await request.formData().catch(() => new FormData());
  return handleRegistration(form, registrations, logger);
}

/** JSON for the island (decision 149): a middleware, as an action's Response would be rendered. */
export const middleware: MiddlewareFunction<Response>[] = [
  async (args, next) => {
    const { method, headers } = args.request;
    if (method !== "POST" || !headers.get("Accept")?.includes("application/json")) return next();
    const outcome = await handleRegistrationRequest(args);
    return Response.json(outcome.result, { status: outcome.status, headers: outcome.headers });
  },
];

export async function action(args: ActionFunctionArgs) {
  const outcome = await handleRegistrationRequest(args);
  if (outcome.redirectTo) return redirect(outcome.redirectTo, 303);
  return data(outcome.result, { status: outcome.status, headers: outcome.headers });
}

/** Retry-After on a 503 reaches the browser only if the page passes it on (the email links' too). */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};
