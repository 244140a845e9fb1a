import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";

import { ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { registrationCopy } from "../../content/registration.ts";

/** Replaces the form once the registration is stored. */
export function ThankYouCard({ moveFocus }: { moveFocus: boolean }) {
  const cardRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a JavaScript submit the form disappears under the visitor's focus: move it here,
  // and bring the whole card into view below the fixed header (html's scroll-padding-top).
  useEffect(() => {
    const heading = headingRef.current;
    if (!moveFocus || !heading) return;
    heading.focus({ preventScroll: true });
    cardRef.current?.scrollIntoView({ block: "start" });
  }, [moveFocus]);

  return (
    <Card
      ref={cardRef}
      padding="none"
      className="flex scroll-mt-4 flex-col items-start gap-5 p-6 sm:p-10"
    >
      <CheckCircle2 aria-hidden="true" className="size-10 text-success" />
      <h2 id="thank-you-heading" ref={headingRef} tabIndex={-1} className="text-3xl">
        {registrationCopy.thankYou.title}
      </h2>
      <p className="text-lg leading-relaxed text-ink-soft">{registrationCopy.thankYou.body}</p>
      <ButtonLink to="/">{registrationCopy.thankYou.home}</ButtonLink>
    </Card>
  );
}
