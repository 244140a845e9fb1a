import type { Route } from "./+types/refund-policy";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { refundPolicy } from "../../content/policies/refund.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/refund-policy");

export default function Page() {
  return <PolicyLayout title={pages["/refund-policy"].heading} policy={refundPolicy} />;
}
