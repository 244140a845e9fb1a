import { BadgeCheck } from "lucide-react";
import { Link } from "react-router";

import { type ClinicalPage, reviewFor } from "../../content/reviews.ts";

export function ReviewLine({ page }: { page: ClinicalPage }) {
  const review = reviewFor(page);
  return (
    <p className="mt-5 flex items-start gap-2 text-sm text-ink-soft">
      <BadgeCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-700" />
      <span>
        Medically reviewed by{" "}
        <Link to="/team" className="font-semibold text-brand-800 underline underline-offset-2">
          {review.name}
        </Link>
        , {review.role}, on <time dateTime={review.iso}>{review.date}</time>
      </span>
    </p>
  );
}
