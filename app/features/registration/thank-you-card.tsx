import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";

import { ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { registrationCopy } from "../../content/registration.ts";

/** Replaces the form once the registration is stored. */
export function ThankYouCard({ moveFocus }: { moveFocus: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a JavaScript submit the form disappears under the visitor's focus: move it here.
  useEffect(() => {
    const heading = headingRef.current;
    if (!moveFocus || !heading) return;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: "start" });
  }, [moveFocus]);

  return (
    <Card padding="none" className="flex flex-col items-start gap-5 p-6 sm:p-10">
      <CheckCircle2 aria-hidden="true" className="size-10 text-success" />
      {/* The id gives it the scroll margin that clears the fixed header (app.css). */}
      <h2 id="thank-you-heading" ref={headingRef} tabIndex={-1} className="text-3xl">
        {registrationCopy.thankYou.title}
      </h2>
      <p className="text-lg leading-relaxed text-ink-soft">{registrationCopy.thankYou.body}</p>
      <ButtonLink to="/">{registrationCopy.thankYou.home}</ButtonLink>
    </Card>
  );
}
