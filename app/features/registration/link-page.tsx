import { CheckCircle2, Clock, Info } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";

import { ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Section } from "../../components/ui/section.tsx";
import { clinic } from "../../content/clinic.ts";
import { type LinkPageCopy, linkPageActions } from "../../content/email-links.ts";

const icons = { done: CheckCircle2, wait: Clock, note: Info } as const;

/**
 * The one card every page behind an email link shows: what happened, in a heading and a
 * few sentences, then the way on (`children`). `moveFocus` puts focus on the heading when
 * the card replaced content under the visitor's focus (the unsubscribe button).
 */
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

/** The ways on from a link page: register again when the link cannot help, and home. */
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
