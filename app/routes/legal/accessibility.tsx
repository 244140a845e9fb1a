import type { Route } from "./+types/accessibility";
import { policyFacts } from "./policy-facts.ts";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { accessibilityStatement } from "../../content/policies/accessibility.ts";
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
