import { CtaPanel } from "../../components/content/cta-panel.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { Section } from "../../components/ui/section.tsx";
import { gmcNumbers, gmcRegisterUrl } from "../../config/clinicians.ts";
import { pages } from "../../content/pages.ts";
import { teamCta, teamIntro, teamMembers } from "../../content/team.ts";
import { pageMeta } from "../../lib/seo.ts";

export const meta = () => pageMeta("/team");

export default function Team() {
  return (
    <>
      <PageHero eyebrow="About us" title={pages["/team"].heading}>
        <p>{teamIntro}</p>
      </PageHero>

      <Section id="clinicians" title="Our clinicians">
        <ul className="grid gap-6 md:grid-cols-2">
          {teamMembers.map((member) => {
            const gmcNumber = gmcNumbers[member.id];
            if (!gmcNumber) throw new Error(`No GMC number for team member ${member.id}`);
            return (
              <li key={member.id}>
                <article
                  aria-labelledby={`${member.id}-name`}
                  className="flex h-full flex-col rounded-card border border-line bg-surface p-6 shadow-card sm:p-8"
                >
                  <div className="flex items-center gap-5">
                    <span
                      aria-hidden="true"
                      className="inline-flex size-20 shrink-0 items-center justify-center rounded-full bg-brand-700 font-serif text-2xl font-semibold tracking-wide text-white ring-4 ring-brand-50"
                    >
                      {member.initials}
                    </span>
                    <div>
                      <h3 id={`${member.id}-name`} className="text-2xl">
                        {member.name}
                      </h3>
                      <p className="mt-1 font-semibold text-brand-700">{member.role}</p>
                      <p className="mt-0.5 text-sm text-muted">
                        <span className="sr-only">Qualifications: </span>
                        {member.qualifications}
                      </p>
                      <p className="mt-1 text-sm text-ink-soft">
                        {"GMC number "}
                        <span className="font-semibold text-ink tabular-nums">
                          {gmcNumber}
                        </span>:{" "}
                        <a
                          href={gmcRegisterUrl(gmcNumber)}
                          rel="noopener"
                          className="font-semibold text-brand-800 underline underline-offset-2"
                        >
                          check the GMC register
                          <span className="sr-only"> for GMC number {gmcNumber}</span>
                        </a>
                      </p>
                    </div>
                  </div>
                  <div className="mt-6 space-y-3 leading-relaxed text-ink-soft">
                    {member.bio.map((text) => (
                      <p key={text}>{text}</p>
                    ))}
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      </Section>

      <CtaPanel id="team-cta" cta={teamCta} />
    </>
  );
}
