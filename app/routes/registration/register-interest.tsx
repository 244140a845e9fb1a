import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/register-interest";

export const meta: Route.MetaFunction = () => pageMeta("/register-interest");

export default function Page() {
  return <PageHero title={pages["/register-interest"].heading} />;
}
