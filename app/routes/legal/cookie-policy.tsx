import type { Route } from "./+types/cookie-policy";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { cookiePolicy } from "../../content/policies/cookies.ts";
import { policyFacts } from "../../features/consent/policy-facts.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/cookie-policy");

export default function Page() {
  return (
    <PolicyLayout title={pages["/cookie-policy"].heading} policy={cookiePolicy(policyFacts)} />
  );
}
