import { registrationPaths } from "../../../contract/registrations.ts";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { pages } from "../../content/pages.ts";
import { ThankYouCard } from "../../features/registration/registration-form.tsx";
import { metaFor } from "../../lib/seo.ts";

/** Where the form posted without JavaScript lands (303, decision 089); not for search engines. */
export const meta = () => metaFor(pages[registrationPaths.thankYou], null);

export default function ThankYouPage() {
  return (
    <>
      <PageHero title={pages[registrationPaths.thankYou].heading} />
      <Section>
        <div className="max-w-2xl">
          <ThankYouCard moveFocus={false} />
        </div>
      </Section>
    </>
  );
}
