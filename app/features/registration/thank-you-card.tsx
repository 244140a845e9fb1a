import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";

import { ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { registrationCopy } from "../../content/registration.ts";

const copy = registrationCopy.thankYou;

/**
 * Replaces the form once the registration is stored (with JavaScript), and is the body
 * of the thank-you page a form posted without JavaScript is redirected to. It says
 * what happens next: confirm the address, then one email when we open.
 */
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
        {copy.title}
      </h2>
      <p className="text-lg leading-relaxed text-ink-soft">{copy.body}</p>
      <ol className="flex list-decimal flex-col gap-3 pl-6 text-base leading-relaxed text-ink-soft marker:font-semibold marker:text-brand-800">
        {copy.steps.map((step) => (
          <li key={step} className="pl-1">
            {step}
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2">
        <h3 className="text-lg">{copy.meanwhileTitle}</h3>
        <ul className="flex flex-col gap-2 text-base">
          {copy.meanwhile.map((item) => (
            <li key={item.to}>
              <a href={item.to} className="font-medium text-brand-800 underline underline-offset-2">
                {item.text}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <ButtonLink to="/">{copy.home}</ButtonLink>
    </Card>
  );
}
