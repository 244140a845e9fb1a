import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = () => pageMeta("/terms-of-service");

export default function Page() {
  return <PageHero title={pages["/terms-of-service"].heading} />;
}
