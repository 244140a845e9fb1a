import type { Route } from "./+types/shipping-policy";
import { PolicyLayout } from "../../components/content/policy-layout.tsx";
import { pages } from "../../content/pages.ts";
import { shippingPolicy } from "../../content/policies/shipping.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/shipping-policy");

export default function Page() {
  return <PolicyLayout title={pages["/shipping-policy"].heading} policy={shippingPolicy} />;
}
