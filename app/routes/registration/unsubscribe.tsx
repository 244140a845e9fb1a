import { useState } from "react";
import { data } from "react-router";

import type { Route } from "./+types/unsubscribe";
import { appServicesContext } from "../../../contract/registrations.ts";
import { unsubscribeCopy } from "../../content/email-links.ts";
import {
  checkUnsubscribeLink,
  linkToken,
  rejoinLink,
  unsubscribeLink,
} from "../../features/registration/email-links.server.ts";
import {
  ContactLine,
  LinkPage,
  LinkPageActions,
  LinkPageButton,
} from "../../features/registration/link-page.tsx";
import { metaFor } from "../../lib/seo.ts";

/**
 * The unsubscribe link of every email (decision 090). A GET only looks and shows a button:
 * link scanners open links. The button's POST, or a mail provider's RFC 8058 one-click
 * POST (token in the query, no Origin), unsubscribes. Then "Join the list again" (a POST
 * with `intent=rejoin`) is the one way back for the address (decision 101).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { registrations } = context.get(appServicesContext);
  const answer = await checkUnsubscribeLink(registrations, linkToken(request.url));
  // The token goes back only with a button, and only when it is genuine.
  const withButton = answer.view === "ask" || answer.view === "alreadyUnsubscribed";
  const token = withButton ? linkToken(request.url) : null;
  return data({ view: answer.view, token }, { status: answer.status, headers: answer.headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { registrations } = context.get(appServicesContext);
  // A body that is not a form (or none at all) still has the token in the query.
  const form = await request.formData().catch(() => undefined);
  const token = linkToken(request.url, form);
  const answer =
    form?.get(intentField) === rejoinIntent
      ? await rejoinLink(registrations, token)
      : await unsubscribeLink(registrations, token);
  return data({ view: answer.view }, { status: answer.status, headers: answer.headers });
}

/** A one-click POST carries no intent: only the "Join the list again" button does. */
const intentField = "intent";
const rejoinIntent = "rejoin";

export { linkPageHeaders as headers } from "../../features/registration/link-page.tsx";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(unsubscribeCopy[loaderData?.view ?? "invalid"], null),
  { name: "referrer", content: "same-origin" },
];

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  // The answer to a press replaces the card under the visitor's focus: focus its heading.
  const [pressed, setPressed] = useState(false);
  const view = actionData?.view ?? loaderData.view;

  if (view === "ask") {
    return (
      <LinkPage copy={unsubscribeCopy.ask} tone="note">
        <LinkPageButton
          token={loaderData.token}
          label={unsubscribeCopy.button}
          pending={unsubscribeCopy.pending}
          onPress={() => setPressed(true)}
        />
        <ContactLine />
      </LinkPage>
    );
  }
  const done = view === "done" || view === "alreadyUnsubscribed" || view === "rejoined";
  const canRejoin = (view === "done" || view === "alreadyUnsubscribed") && loaderData.token;
  return (
    <LinkPage
      key={view}
      copy={unsubscribeCopy[view]}
      tone={done ? "done" : view === "unavailable" ? "wait" : "note"}
      moveFocus={pressed}
    >
      {canRejoin ? (
        <LinkPageButton
          token={loaderData.token}
          label={unsubscribeCopy.rejoinButton}
          pending={unsubscribeCopy.rejoinPending}
          onPress={() => setPressed(true)}
          intent={{ name: intentField, value: rejoinIntent }}
        />
      ) : null}
      <LinkPageActions registerAgain={false} />
    </LinkPage>
  );
}
