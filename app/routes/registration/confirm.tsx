import { data } from "react-router";

import type { Route } from "./+types/confirm";
import { appServicesContext } from "../../../contract/registrations.ts";
import { confirmButton, confirmCopy } from "../../content/email-links.ts";
import {
  checkConfirmLink,
  confirmLink,
  linkToken,
} from "../../features/registration/email-links.server.ts";
import {
  LinkPage,
  LinkPageActions,
  LinkPageButton,
} from "../../features/registration/link-page.tsx";
import { metaFor } from "../../lib/seo.ts";

// A GET only looks and shows the button that confirms: link scanners open links in mail, some
// running scripts, and must not confirm anyone (decision 100).
export async function loader({ request, context }: Route.LoaderArgs) {
  const { registrations } = context.get(appServicesContext);
  const answer = await checkConfirmLink(registrations, linkToken(request.url));
  // The token goes back only with the button, and only when it is genuine.
  const token = answer.view === "ask" ? linkToken(request.url) : null;
  return data({ view: answer.view, token }, { status: answer.status, headers: answer.headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { registrations } = context.get(appServicesContext);
  const form = await request.formData().catch(() => undefined);
  const answer = await confirmLink(registrations, linkToken(request.url, form));
  return data({ view: answer.view }, { status: answer.status, headers: answer.headers });
}

export { headers } from "../../features/registration/register.server.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(confirmCopy[loaderData?.view ?? "invalid"], null),
  { name: "referrer", content: "same-origin" },
];

export default function ConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData?.view ?? loaderData.view;
  const done = view === "confirmed" || view === "alreadyConfirmed";
  return (
    <LinkPage
      copy={confirmCopy[view]}
      tone={done ? "done" : view === "unavailable" || view === "expired" ? "wait" : "note"}
    >
      {view === "ask" ? (
        <LinkPageButton token={loaderData.token} label={confirmButton} />
      ) : (
        <LinkPageActions registerAgain={!done && view !== "unavailable"} />
      )}
    </LinkPage>
  );
}
