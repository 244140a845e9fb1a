import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/faq";

export const meta: Route.MetaFunction = () => pageMeta("/faq");

export default function Page() {
  return <PageHero title={pages["/faq"].heading} />;
}
