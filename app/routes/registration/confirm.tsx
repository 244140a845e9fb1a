import { data } from "react-router";

import type { Route } from "./+types/confirm";
import { confirmCopy, linkUnavailableCopy } from "../../content/email-links.ts";
import {
  type ConfirmView,
  confirmLink,
  linkToken,
} from "../../features/registration/email-links.server.ts";
import { LinkPage, LinkPageActions } from "../../features/registration/link-page.tsx";
import { appServicesContext } from "../../lib/app-context.ts";
import { metaFor } from "../../lib/seo.ts";

/**
 * The confirmation link from the registration email (double opt-in). Rendered on each
 * request, never prerendered: it needs the token (docs/decisions/090). The server adds
 * no-store, noindex and same-origin referrer headers (server/security/headers.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { registrations } = context.get(appServicesContext);
  const answer = await confirmLink(registrations, linkToken(request.url));
  return data({ view: answer.view }, { status: answer.status, headers: answer.headers });
}

/** Retry-After on a 503 reaches the browser only if the route passes it on. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const copyFor = (view: ConfirmView) =>
  view === "unavailable" ? linkUnavailableCopy : confirmCopy[view];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(copyFor(loaderData?.view ?? "invalid"), null),
  { name: "referrer", content: "same-origin" },
];

export default function ConfirmPage({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  const done = view === "confirmed" || view === "alreadyConfirmed";
  return (
    <LinkPage
      copy={copyFor(view)}
      tone={done ? "done" : view === "unavailable" || view === "expired" ? "wait" : "note"}
    >
      <LinkPageActions registerAgain={!done && view !== "unavailable"} />
    </LinkPage>
  );
}
