// REPLACE BEFORE LAUNCH: the reviewers are placeholders and the dates are when this copy was
// drafted, not a clinical review.
import { teamMembers } from "./team.ts";

const clinicalReviews = {
  "/trt-overview": { reviewerId: "medical-director", date: "2026-11-23" },
  "/treatment-options": { reviewerId: "medical-director", date: "2026-11-23" },
  "/faq": { reviewerId: "lead-clinician", date: "2026-11-23" },
  "/consultation": { reviewerId: "lead-clinician", date: "2026-11-23" },
};

export type ClinicalPage = keyof typeof clinicalReviews;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

export function reviewFor(page: ClinicalPage) {
  const review = clinicalReviews[page];
  const reviewer = teamMembers.find((m) => m.id === review.reviewerId);
  if (!reviewer) throw new Error(`No team member ${review.reviewerId} to review ${page}`);
  return {
    name: reviewer.name,
    role: reviewer.role,
    date: dateFormat.format(new Date(`${review.date}T00:00:00Z`)),
    iso: review.date,
  };
}
