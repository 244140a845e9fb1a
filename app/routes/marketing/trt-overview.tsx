import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/trt-overview";

export const meta: Route.MetaFunction = () => pageMeta("/trt-overview");

export default function Page() {
  return <PageHero title={pages["/trt-overview"].heading} />;
}
