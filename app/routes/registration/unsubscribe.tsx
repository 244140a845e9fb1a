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
  LinkPage,
  LinkPageActions,
  LinkPageButton,
  rejoinIntent,
} from "../../features/registration/link-page.tsx";
import { metaFor } from "../../lib/seo.ts";

// A GET only looks (link scanners open links): the button's POST, or a mail provider's RFC 8058
// one-click POST (token in the query), unsubscribes (decision 090); rejoining is decision 101.
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
  const act = form?.get(rejoinIntent.name) === rejoinIntent.value ? rejoinLink : unsubscribeLink;
  const answer = await act(registrations, token);
  return data({ view: answer.view }, { status: answer.status, headers: answer.headers });
}

export { headers } from "../../features/registration/register.server.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(unsubscribeCopy[loaderData?.view ?? "invalid"], null),
  { name: "referrer", content: "same-origin" },
];

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData?.view ?? loaderData.view;
  const done = view === "done" || view === "alreadyUnsubscribed" || view === "rejoined";
  const canRejoin = (view === "done" || view === "alreadyUnsubscribed") && loaderData.token;
  return (
    <LinkPage
      copy={unsubscribeCopy[view]}
      tone={done ? "done" : view === "unavailable" ? "wait" : "note"}
    >
      {view === "ask" ? (
        <LinkPageButton token={loaderData.token} label={unsubscribeCopy.button} />
      ) : (
        <>
          {canRejoin ? (
            <LinkPageButton token={loaderData.token} label={unsubscribeCopy.rejoinButton} rejoin />
          ) : null}
          <LinkPageActions registerAgain={false} />
        </>
      )}
    </LinkPage>
  );
}
