import type { Route } from "./+types/accessibility";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { accessibilityStatement } from "../../content/policies/accessibility.ts";
import { policyFacts } from "../../features/consent/policy-facts.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/accessibility");

export default function Page() {
  return (
    <PolicyLayout
      title={pages["/accessibility"].heading}
      policy={accessibilityStatement(policyFacts)}
    />
  );
}
