import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/shipping-policy";

export const meta: Route.MetaFunction = () => pageMeta("/shipping-policy");

export default function Page() {
  return <PageHero title={pages["/shipping-policy"].heading} />;
}
