import { storageRetryAfterSeconds } from "./register.server.ts";
import {
  type LinkProblem,
  type RegistrationService,
  linkTokenParam,
} from "../../../contract/registrations.ts";

/**
 * What the pages behind our emails' links answer (docs/decisions/090): a view to show
 * and its HTTP status. A problem with the link is the visitor's to see, never a 500,
 * and changes nothing.
 */
export type ConfirmView =
  "ask" | "confirmed" | "alreadyConfirmed" | "expired" | "invalid" | "gone" | "unavailable";

export type UnsubscribeView =
  "ask" | "alreadyUnsubscribed" | "done" | "rejoined" | "invalid" | "gone" | "unavailable";

export type LinkAnswer<View> = {
  view: View;
  status: 200 | 400 | 410 | 503;
  headers?: Record<string, string>;
};

/**
 * 400 for a link we did not make (forged, altered, cut short or missing); 410 Gone for a
 * genuine one that no longer works: past its 7 days, or for a registration since deleted.
 */
const problemStatus = { invalid: 400, expired: 410, gone: 410 } as const;

const unavailable = {
  view: "unavailable",
  status: 503,
  headers: { "Retry-After": String(storageRetryAfterSeconds) },
} as const;

/** The token from the query string, or else from a posted form; null when there is none. */
export function linkToken(url: string, form?: FormData): string | null {
  const fromQuery = new URL(url).searchParams.get(linkTokenParam)?.trim();
  if (fromQuery) return fromQuery;
  const fromForm = form?.get(linkTokenParam);
  return typeof fromForm === "string" && fromForm.trim() !== "" ? fromForm.trim() : null;
}

/**
 * The service's answer, or null while storage cannot be reached (a 503); anything else
 * is a fault and propagates.
 */
async function orUnavailable<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    // Compared by name: the class lives outside the app bundle (see register.server.ts).
    if (error instanceof Error && error.name === "StorageUnavailableError") return null;
    throw error;
  }
}

function problem<Kind extends LinkProblem["kind"]>(kind: Kind): LinkAnswer<Kind> {
  return { view: kind, status: problemStatus[kind] };
}

/**
 * A look at a confirm link (GET, HEAD, `.data`): never confirms (docs/decisions/100).
 * Link scanners open links in mail, some running scripts, so confirming takes a press
 * of the page's button.
 */
export async function checkConfirmLink(
  registrations: Pick<RegistrationService, "checkConfirm">,
  token: string | null,
): Promise<LinkAnswer<ConfirmView>> {
  if (token === null) return problem("invalid");
  const result = await orUnavailable(() => registrations.checkConfirm(token));
  if (result === null) return unavailable;
  if (result.kind === "valid") {
    return { view: result.alreadyConfirmed ? "alreadyConfirmed" : "ask", status: 200 };
  }
  return problem(result.kind);
}

/** The confirm button's POST: a second press is harmless. */
export async function confirmLink(
  registrations: Pick<RegistrationService, "confirm">,
  token: string | null,
): Promise<LinkAnswer<ConfirmView>> {
  if (token === null) return problem("invalid");
  const result = await orUnavailable(() => registrations.confirm(token));
  if (result === null) return unavailable;
  if (result.kind === "confirmed") {
    return { view: result.firstTime ? "confirmed" : "alreadyConfirmed", status: 200 };
  }
  return problem(result.kind);
}

/** A look at an unsubscribe link (GET): never unsubscribes. */
export async function checkUnsubscribeLink(
  registrations: Pick<RegistrationService, "checkUnsubscribe">,
  token: string | null,
): Promise<LinkAnswer<UnsubscribeView>> {
  if (token === null) return problem("invalid");
  const result = await orUnavailable(() => registrations.checkUnsubscribe(token));
  if (result === null) return unavailable;
  if (result.kind === "valid") {
    return { view: result.alreadyUnsubscribed ? "alreadyUnsubscribed" : "ask", status: 200 };
  }
  // Unsubscribe links never expire (RFC 8058): an "expired" one is not one of ours.
  return problem(result.kind === "expired" ? "invalid" : result.kind);
}

/** The button or a mail provider's one-click POST: safe to repeat, each time a 200. */
export async function unsubscribeLink(
  registrations: Pick<RegistrationService, "unsubscribe">,
  token: string | null,
): Promise<LinkAnswer<UnsubscribeView>> {
  if (token === null) return problem("invalid");
  const result = await orUnavailable(() => registrations.unsubscribe(token));
  if (result === null) return unavailable;
  if (result.kind === "unsubscribed") return { view: "done", status: 200 };
  return problem(result.kind === "expired" ? "invalid" : result.kind);
}

/**
 * "Join the list again" from an unsubscribe link's page (docs/decisions/101): the only
 * way back for an address that unsubscribed. Safe to repeat.
 */
export async function rejoinLink(
  registrations: Pick<RegistrationService, "rejoin">,
  token: string | null,
): Promise<LinkAnswer<UnsubscribeView>> {
  if (token === null) return problem("invalid");
  const result = await orUnavailable(() => registrations.rejoin(token));
  if (result === null) return unavailable;
  if (result.kind === "rejoined") return { view: "rejoined", status: 200 };
  return problem(result.kind === "expired" ? "invalid" : result.kind);
}
