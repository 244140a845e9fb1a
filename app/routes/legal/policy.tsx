import { useMatches } from "react-router";

import type { Route } from "./+types/policy";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { accessibilityStatement } from "../../content/policies/accessibility.ts";
import { cookiePolicy } from "../../content/policies/cookies.ts";
import { privacyPolicy } from "../../content/policies/privacy.ts";
import { refundPolicy } from "../../content/policies/refund.ts";
import { shippingPolicy } from "../../content/policies/shipping.ts";
import { termsOfService } from "../../content/policies/terms.ts";
import { policyFacts } from "../../features/consent/policy-facts.ts";
import { pageMeta } from "../../lib/seo.ts";

/** Every policy page, by its path; app/routes.ts gives each route this path as its id. */
const policies = {
  "/privacy-policy": privacyPolicy(policyFacts),
  "/terms-of-service": termsOfService(policyFacts),
  "/cookie-policy": cookiePolicy(policyFacts),
  "/shipping-policy": shippingPolicy,
  "/refund-policy": refundPolicy,
  "/accessibility": accessibilityStatement(policyFacts),
};

type PolicyPath = keyof typeof policies;

// The route's id, not the URL: matching ignores case and a trailing slash.
export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[matches.length - 1]?.id as PolicyPath);

export default function Policy() {
  const path = useMatches().at(-1)?.id as PolicyPath;
  return <PolicyLayout title={pages[path].heading} policy={policies[path]} />;
}
