import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = () => pageMeta("/contact");

export default function Page() {
  return <PageHero title={pages["/contact"].heading} />;
}
