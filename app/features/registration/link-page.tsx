import { CheckCircle2, Clock, Info } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";

import { linkTokenParam } from "../../../contract/registrations.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Section } from "../../components/ui/section.tsx";
import { clinic } from "../../content/clinic.ts";
import { type LinkPageCopy, linkPageActions } from "../../content/email-links.ts";

const icons = { done: CheckCircle2, wait: Clock, note: Info } as const;

/** The one card every page behind an email link shows: what happened, the way on, whom to ask. */
export function LinkPage({
  copy,
  tone,
  children,
}: {
  copy: LinkPageCopy;
  tone: keyof typeof icons;
  children: ReactNode;
}) {
  const Icon = icons[tone];

  return (
    <Section width="narrow">
      <Card className="flex flex-col items-start gap-5 p-6 sm:p-10">
        <Icon
          aria-hidden="true"
          className={tone === "done" ? "size-10 text-success" : "size-10 text-brand-700"}
        />
        <h1 tabIndex={-1} className="text-3xl sm:text-4xl">
          {copy.heading}
        </h1>
        {copy.body.map((paragraph) => (
          <p key={paragraph} className="text-lg leading-relaxed text-ink-soft">
            {paragraph}
          </p>
        ))}
        {children}
        <p className="text-base text-ink-soft">
          {linkPageActions.contactPrefix}{" "}
          <a href={`mailto:${clinic.email}`} className="font-semibold text-brand-800 underline">
            {clinic.email}
          </a>
          .
        </p>
      </Card>
    </Section>
  );
}

export function LinkPageActions({ registerAgain }: { registerAgain: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
      {registerAgain ? (
        <ButtonLink to="/register-interest">{linkPageActions.registerAgain}</ButtonLink>
      ) : null}
      {/* Beside a button, the quiet link sits flush so it lines up when it wraps below. */}
      <ButtonLink
        to="/"
        variant={registerAgain ? "quiet" : "primary"}
        size={registerAgain ? "flush" : "md"}
      >
        {linkPageActions.home}
      </ButtonLink>
    </div>
  );
}

/** A one-click POST carries no intent: only the "Join the list again" button does. */
export const rejoinIntent = { name: "intent", value: "rejoin" } as const;

/** These pages never hydrate (no module script): the browser posts the form itself. */
export function LinkPageButton({
  token,
  label,
  rejoin = false,
}: {
  token: string | null;
  label: string;
  rejoin?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name={linkTokenParam} value={token ?? ""} />
      <Button
        type="submit"
        size={rejoin ? undefined : "lg"}
        variant={rejoin ? "secondary" : undefined}
        name={rejoin ? rejoinIntent.name : undefined}
        value={rejoin ? rejoinIntent.value : undefined}
      >
        {label}
      </Button>
    </Form>
  );
}
