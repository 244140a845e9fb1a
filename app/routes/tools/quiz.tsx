import { Clock, Lock, Stethoscope } from "lucide-react";

import type { Route } from "./+types/quiz";
import { MedicalNote } from "../../components/content/notices.tsx";
import { PageHero } from "../../components/layout/page-hero.tsx";
import { pages } from "../../content/pages.ts";
import { quizIntro } from "../../content/quiz.ts";
import { NoScriptQuiz } from "../../features/quiz/no-script-quiz.tsx";
import { quizIsland } from "../../features/quiz/symptom-quiz.tsx";
import { Island } from "../../lib/island.tsx";
import { pageMeta } from "../../lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta("/quiz");

const facts = [
  { icon: Clock, text: "Ten questions, about two minutes" },
  { icon: Lock, text: "Nothing is saved or sent" },
  { icon: Stethoscope, text: "A screening aid, not a diagnosis" },
] as const;

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Symptom check" title={pages["/quiz"].heading}>
        <p>{quizIntro.lead}</p>
        <ul className="mt-5 flex flex-col gap-x-6 gap-y-2 text-base sm:flex-row sm:flex-wrap">
          {facts.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-2">
              <Icon aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
              {text}
            </li>
          ))}
        </ul>
      </PageHero>
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        <NoScriptQuiz />
        <Island island={quizIsland} props={{}} />
        <p className="mt-8 text-sm leading-relaxed text-ink-soft">{quizIntro.privacy}</p>
        <MedicalNote className="mt-6" />
      </div>
    </>
  );
}
