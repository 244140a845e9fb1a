import { storageRetryAfterSeconds } from "./register.server.ts";
import {
  type LinkProblem,
  type RegistrationService,
  linkTokenParam,
} from "../../../contract/registrations.ts";

/** 400 for a link we did not make; 410 for a genuine one past its 7 days or its registration. */
const problemStatus = { invalid: 400, expired: 410, gone: 410 } as const;

/** From the query string, or else from a posted form. */
export function linkToken(url: string, form?: FormData): string | null {
  const fromQuery = new URL(url).searchParams.get(linkTokenParam)?.trim();
  if (fromQuery) return fromQuery;
  const fromForm = form?.get(linkTokenParam);
  return typeof fromForm === "string" && fromForm.trim() !== "" ? fromForm.trim() : null;
}

/**
 * A problem with the link is the visitor's to see, never a 500 (decision 155). Unsubscribe links
 * never expire (RFC 8058): for them an "expired" one is not one of ours.
 */
async function answer<
  Result extends { kind: string },
  View extends string,
  Expired extends "expired" | "invalid" = "expired",
>(
  token: string | null,
  call: (token: string) => Promise<Result>,
  view: (result: Exclude<Result, LinkProblem>) => View,
  expired: Expired = "expired" as Expired,
): Promise<{
  view: View | Expired | "invalid" | "gone" | "unavailable";
  status: 200 | 400 | 410 | 503;
  headers?: Record<string, string>;
}> {
  if (token === null) return { view: "invalid", status: 400 };
  let result: Result;
  try {
    result = await call(token);
  } catch (error) {
    // Compared by name: the class lives outside the app bundle (see register.server.ts).
    if (!(error instanceof Error && error.name === "StorageUnavailableError")) throw error;
    const headers = { "Retry-After": String(storageRetryAfterSeconds) };
    return { view: "unavailable", status: 503, headers };
  }
  if (Object.hasOwn(problemStatus, result.kind)) {
    const problem = result.kind as LinkProblem["kind"];
    const kind = problem === "expired" ? expired : problem;
    return { view: kind, status: problemStatus[kind] };
  }
  return { view: view(result as Exclude<Result, LinkProblem>), status: 200 };
}

type Token = string | null;

/** GET, HEAD, `.data`: never confirms, since link scanners open links. */
export const checkConfirmLink = (r: Pick<RegistrationService, "checkConfirm">, token: Token) =>
  answer(token, r.checkConfirm.bind(r), (c) => (c.alreadyConfirmed ? "alreadyConfirmed" : "ask"));

export const confirmLink = (r: Pick<RegistrationService, "confirm">, token: Token) =>
  answer(token, r.confirm.bind(r), (c) => (c.firstTime ? "confirmed" : "alreadyConfirmed"));

export const checkUnsubscribeLink = (
  r: Pick<RegistrationService, "checkUnsubscribe">,
  token: Token,
) =>
  answer(
    token,
    r.checkUnsubscribe.bind(r),
    (u) => (u.alreadyUnsubscribed ? "alreadyUnsubscribed" : "ask"),
    "invalid",
  );

/** The button or a mail provider's one-click POST: each time a 200. */
export const unsubscribeLink = (r: Pick<RegistrationService, "unsubscribe">, token: Token) =>
  answer(token, r.unsubscribe.bind(r), () => "done", "invalid");

/** "Join the list again": the only way back. */
export const rejoinLink = (r: Pick<RegistrationService, "rejoin">, token: Token) =>
  answer(token, r.rejoin.bind(r), () => "rejoined", "invalid");
