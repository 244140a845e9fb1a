import type { Route } from "./+types/terms-of-service";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { termsOfService } from "../../content/policies/terms.ts";
import { policyFacts } from "../../features/consent/policy-facts.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/terms-of-service");

export default function Page() {
  return (
    <PolicyLayout title={pages["/terms-of-service"].heading} policy={termsOfService(policyFacts)} />
  );
}
