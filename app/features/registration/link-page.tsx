import { CheckCircle2, Clock, Info } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Form, type HeadersFunction, useNavigation } from "react-router";

import { linkTokenParam } from "../../../contract/registrations.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Section } from "../../components/ui/section.tsx";
import { clinic } from "../../content/clinic.ts";
import { type LinkPageCopy, linkPageActions } from "../../content/email-links.ts";

const icons = { done: CheckCircle2, wait: Clock, note: Info } as const;

/** The one card every page behind an email link shows: what happened, then the way on. */
export function LinkPage({
  copy,
  tone,
  moveFocus = false,
  children,
}: {
  copy: LinkPageCopy;
  tone: keyof typeof icons;
  moveFocus?: boolean;
  children?: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (moveFocus) headingRef.current?.focus();
  }, [moveFocus]);
  const Icon = icons[tone];

  return (
    <Section width="narrow">
      <Card padding="none" className="flex flex-col items-start gap-5 p-6 sm:p-10">
        <Icon
          aria-hidden="true"
          className={tone === "done" ? "size-10 text-success" : "size-10 text-brand-700"}
        />
        <h1 ref={headingRef} tabIndex={-1} className="text-3xl sm:text-4xl">
          {copy.heading}
        </h1>
        {copy.body.map((paragraph) => (
          <p key={paragraph} className="text-lg leading-relaxed text-ink-soft">
            {paragraph}
          </p>
        ))}
        {children}
      </Card>
    </Section>
  );
}

/** Register again when the link cannot help, and home. */
export function LinkPageActions({ registerAgain }: { registerAgain: boolean }) {
  return (
    <>
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
      <ContactLine />
    </>
  );
}

/** A form that posts the link's token back with one button (and its `intent`, if any). */
export function LinkPageButton({
  token,
  label,
  pending,
  onPress,
  intent,
}: {
  token: string | null;
  label: string;
  pending: string;
  onPress: () => void;
  intent?: { name: string; value: string };
}) {
  const navigation = useNavigation();
  return (
    <Form method="post" onSubmit={onPress}>
      <input type="hidden" name={linkTokenParam} value={token ?? ""} />
      <Button
        type="submit"
        size={intent ? undefined : "lg"}
        variant={intent ? "secondary" : undefined}
        name={intent?.name}
        value={intent?.value}
      >
        {navigation.state === "submitting" ? pending : label}
      </Button>
    </Form>
  );
}

/** Retry-After on a 503 reaches the browser only if the route passes it on. */
export const linkPageHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

/** Where to write with a question, or to ask for deletion. */
export function ContactLine() {
  return (
    <p className="text-base text-ink-soft">
      {linkPageActions.contactPrefix}{" "}
      <a href={`mailto:${clinic.email}`} className="font-semibold text-brand-800 underline">
        {clinic.email}
      </a>
      .
    </p>
  );
}
