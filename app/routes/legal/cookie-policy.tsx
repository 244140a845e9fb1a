import type { Route } from "./+types/cookie-policy";
import { policyFacts } from "./policy-facts.ts";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { cookiePolicy } from "../../content/policies/cookies.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/cookie-policy");

export default function Page() {
  return (
    <PolicyLayout title={pages["/cookie-policy"].heading} policy={cookiePolicy(policyFacts)} />
  );
}
