import { useState } from "react";
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
  ContactLine,
  LinkPage,
  LinkPageActions,
  LinkPageButton,
} from "../../features/registration/link-page.tsx";
import { metaFor } from "../../lib/seo.ts";

/**
 * The confirmation link from the registration email (double opt-in). A GET, a HEAD or the
 * `.data` GET only looks and shows one button: link scanners open links in mail, some
 * running scripts, and must not confirm anyone (decision 100). The button's POST confirms.
 */
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

export { linkPageHeaders as headers } from "../../features/registration/link-page.tsx";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(confirmCopy[loaderData?.view ?? "invalid"], null),
  { name: "referrer", content: "same-origin" },
];

export default function ConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  // The answer to a press replaces the card under the visitor's focus: focus its heading.
  const [pressed, setPressed] = useState(false);
  const view = actionData?.view ?? loaderData.view;

  if (view === "ask") {
    return (
      <LinkPage copy={confirmCopy.ask} tone="note">
        <LinkPageButton
          token={loaderData.token}
          label={confirmButton.label}
          pending={confirmButton.pending}
          onPress={() => setPressed(true)}
        />
        <ContactLine />
      </LinkPage>
    );
  }
  const done = view === "confirmed" || view === "alreadyConfirmed";
  return (
    <LinkPage
      key={view}
      copy={confirmCopy[view]}
      tone={done ? "done" : view === "unavailable" || view === "expired" ? "wait" : "note"}
      moveFocus={pressed}
    >
      <LinkPageActions registerAgain={!done && view !== "unavailable"} />
    </LinkPage>
  );
}
