import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/our-approach";

export const meta: Route.MetaFunction = () => pageMeta("/our-approach");

export default function Page() {
  return <PageHero title={pages["/our-approach"].heading} />;
}
