import type { CtaContent } from "../../content/content-types.ts";
import { ButtonLink } from "../ui/button.tsx";

export function CtaPanel({ id, cta }: { id: string; cta: CtaContent }) {
  const headingId = `${id}-heading`;
  return (
    <section aria-labelledby={headingId} className="bg-brand-900 py-16 text-white sm:py-20">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6 lg:px-8">
        <h2 id={headingId} className="text-3xl text-white sm:text-4xl">
          {cta.title}
        </h2>
        <div className="mt-4 text-lg leading-relaxed text-brand-100">
          <p>{cta.body}</p>
        </div>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={cta.primary.to} variant="inverse" size="lg">
            {cta.primary.label}
          </ButtonLink>
          {cta.secondary ? (
            <ButtonLink to={cta.secondary.to} variant="outlineInverse" size="lg">
              {cta.secondary.label}
            </ButtonLink>
          ) : null}
        </div>
      </div>
    </section>
  );
}
