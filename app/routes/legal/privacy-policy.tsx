import type { Route } from "./+types/privacy-policy";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { privacyPolicy } from "../../content/policies/privacy.ts";
import { policyFacts } from "../../features/consent/policy-facts.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/privacy-policy");

export default function Page() {
  return (
    <PolicyLayout title={pages["/privacy-policy"].heading} policy={privacyPolicy(policyFacts)} />
  );
}
