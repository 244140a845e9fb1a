import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/refund-policy";

export const meta: Route.MetaFunction = () => pageMeta("/refund-policy");

export default function Page() {
  return <PageHero title={pages["/refund-policy"].heading} />;
}
