import { useState } from "react";
import { Form, data, useNavigation } from "react-router";

import type { Route } from "./+types/confirm";
import { appServicesContext, linkTokenParam } from "../../../contract/registrations.ts";
import { Button } from "../../components/ui/button.tsx";
import { confirmButton, confirmCopy, linkUnavailableCopy } from "../../content/email-links.ts";
import {
  type ConfirmView,
  checkConfirmLink,
  confirmLink,
  linkToken,
} from "../../features/registration/email-links.server.ts";
import { ContactLine, LinkPage, LinkPageActions } from "../../features/registration/link-page.tsx";
import { metaFor } from "../../lib/seo.ts";

/**
 * The confirmation link from the registration email (double opt-in). A GET, a HEAD or
 * the `.data` GET only looks and shows one button: link scanners open links in mail,
 * some running scripts, and must not confirm anyone (docs/decisions/100). The button's
 * POST confirms; pressing it again changes nothing. Rendered on each request, never
 * prerendered (decision 090); the server adds no-store, noindex and same-origin
 * referrer headers (server/security/headers.ts).
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

/** Retry-After on a 503 reaches the browser only if the route passes it on. */
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

const copyFor = (view: ConfirmView) =>
  view === "unavailable" ? linkUnavailableCopy : confirmCopy[view];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...metaFor(copyFor(loaderData?.view ?? "invalid"), null),
  { name: "referrer", content: "same-origin" },
];

export default function ConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  // Set when the button is pressed with JavaScript: the answer then replaces the card
  // under the visitor's focus, so focus moves to its heading.
  const [pressed, setPressed] = useState(false);
  const view = actionData?.view ?? loaderData.view;

  if (view === "ask") {
    return (
      <LinkPage copy={confirmCopy.ask} tone="note">
        <Form method="post" onSubmit={() => setPressed(true)}>
          <input type="hidden" name={linkTokenParam} value={loaderData.token ?? ""} />
          <Button type="submit" size="lg">
            {navigation.state === "submitting" ? confirmButton.pending : confirmButton.label}
          </Button>
        </Form>
        <ContactLine />
      </LinkPage>
    );
  }
  const done = view === "confirmed" || view === "alreadyConfirmed";
  return (
    <LinkPage
      key={view}
      copy={copyFor(view)}
      tone={done ? "done" : view === "unavailable" || view === "expired" ? "wait" : "note"}
      moveFocus={pressed}
    >
      <LinkPageActions registerAgain={!done && view !== "unavailable"} />
    </LinkPage>
  );
}
