import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/treatment-options";

export const meta: Route.MetaFunction = () => pageMeta("/treatment-options");

export default function Page() {
  return <PageHero title={pages["/treatment-options"].heading} />;
}
