import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/services";

export const meta: Route.MetaFunction = () => pageMeta("/services");

export default function Page() {
  return <PageHero title={pages["/services"].heading} />;
}
